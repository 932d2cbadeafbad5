package io.fabriclab.ui;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.Init;
import org.testfx.framework.junit5.Start;
import org.testfx.framework.junit5.Stop;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.stage.PopupWindow;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * TestFX's {@code ApplicationExtension} with the stage kept for the whole test class: the primary stage
 * is shown once, and before each test the class's {@link Start @Start} method builds that test's own
 * scene on it (a fresh document, editor and scene each time, as before).
 *
 * <p>ApplicationExtension hides every window after each test, releases the mouse and the keyboard and
 * waits for the FX events three times over (about 0.2 s of fixed sleeps per test), then shows the
 * stage again for the next. Here, after each test: pressed keys and buttons are released (only if any
 * are), every window the test opened besides the stage is hidden, and the FX events are waited for once.
 * Before each test the state is proved clean, or the test fails: no window showing but the stage (a
 * tooltip that popped up late is hidden), no key or button held, the scene the test runs on is the one
 * its {@code @Start} just built, and the stage has the keyboard focus.
 */
public class SharedStageExtension extends FxRobot
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private Stage stage;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        for (Method m : context.getRequiredTestClass().getDeclaredMethods()) {
            if (m.isAnnotationPresent(Init.class) || m.isAnnotationPresent(Stop.class)) {
                throw new IllegalStateException(m + ": @Init and @Stop are not run by " + getClass().getSimpleName());
            }
        }
        stage = FxToolkit.registerPrimaryStage();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        Object test = context.getRequiredTestInstance();
        List<Method> starts = new ArrayList<>();
        for (Method m : test.getClass().getDeclaredMethods()) {
            if (m.isAnnotationPresent(Start.class)) {
                if (m.getParameterCount() != 1 || m.getParameterTypes()[0] != Stage.class) {
                    throw new IllegalStateException(m + ": a @Start method takes the Stage");
                }
                m.setAccessible(true);
                starts.add(m);
            }
        }
        // The reset proved: nothing left over from the test before (or from another class in this JVM).
        if (!robotContext().getKeyboardRobot().getPressedKeys().isEmpty()
                || !robotContext().getMouseRobot().getPressedButtons().isEmpty()) {
            throw new IllegalStateException("keys or mouse buttons still pressed: "
                    + robotContext().getKeyboardRobot().getPressedKeys() + " "
                    + robotContext().getMouseRobot().getPressedButtons());
        }
        Scene before = FxToolkit.setupFixture(() -> {
            // A tooltip's delay can end after the previous test did: popups are hidden, not counted.
            otherWindows().stream().filter(w -> w instanceof PopupWindow).forEach(Window::hide);
            List<Window> open = otherWindows();
            if (!open.isEmpty()) {
                throw new IllegalStateException("windows still showing: " + open);
            }
            return stage.getScene();
        });
        Scene built = FxToolkit.setupFixture(() -> {
            for (Method m : starts) {
                try {
                    m.invoke(test, stage);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof Exception x ? x : new IllegalStateException(e.getCause());
                }
            }
            return stage.getScene();
        });
        if (built == null || built == before || !stage.isShowing()) {
            throw new IllegalStateException("@Start must set a new scene on the stage and show it");
        }
        // Showing the stage gave it the keyboard focus; a window that a test before opened and closed may
        // have left it unfocused (the robot's keys go to the focused window).
        FxToolkit.setupFixture(() -> stage.requestFocus());
        WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS, stage::isFocused);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (!robotContext().getMouseRobot().getPressedButtons().isEmpty()) {
            release(new MouseButton[0]);
        }
        if (!robotContext().getKeyboardRobot().getPressedKeys().isEmpty()) {
            release(new KeyCode[0]);
        }
        FxToolkit.setupFixture(() -> otherWindows().forEach(Window::hide));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        // As ApplicationExtension leaves it for the next class in this JVM: every window hidden.
        FxToolkit.cleanupStages();
    }

    /** Windows showing besides the shared stage (dialogs, replay windows, tooltips and popups). */
    private List<Window> otherWindows() {
        List<Window> out = new ArrayList<>();
        for (Window w : Window.getWindows()) {
            if (w != stage && w.isShowing()) {
                out.add(w);
            }
        }
        return out;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType().isAssignableFrom(FxRobot.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return this;
    }
}
