package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.model.Device;
import io.fabriclab.model.ScaleUp;
import javafx.stage.Stage;

/** New from Template's GPU choice gives every generated server that GPU's scale-up domain. */
@ExtendWith(ApplicationExtension.class)
class TemplateGpuTest {
    private TemplateDialog dlg;

    @Start
    void start(Stage stage) {
        dlg = new TemplateDialog(null);
        dlg.show(g -> { });
    }

    @Test
    void theGpuChoiceReachesEveryServerAndThePreview(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> dlg.current() != null);
        assertEquals(ScaleUp.DEFAULT, dlg.gpu.getValue(), "H100 unless chosen");
        assertTrue(dlg.current().fabric().servers().stream().allMatch(d -> ScaleUp.DEFAULT.equals(d.scaleUp())));
        for (int kind = 0; kind < 3; kind++) {
            int k = kind;
            ScaleUp b200 = ScaleUp.of("B200");
            robot.interact(() -> {
                dlg.selectKind(k);
                dlg.gpu.setValue(b200);
            });
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> dlg.current() != null
                    && b200.equals(dlg.current().fabric().servers().get(0).scaleUp()));
            for (Device d : dlg.current().fabric().servers()) {
                assertEquals(b200, d.scaleUp(), d.id());
            }
            // The preview is written on the FX thread after the fabric is generated ("generating…"
            // until then): wait for it, then check what it says.
            String want = "B200 (NVLink 5 / NVSwitch 900 GB/s per GPU each way)";
            try {
                WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                        () -> robot.lookup("#template-preview").queryLabeled().getText().contains(want));
            } catch (java.util.concurrent.TimeoutException e) {
                // Fall through: the assertion below says what the preview shows.
            }
            String p = robot.lookup("#template-preview").queryLabeled().getText();
            assertTrue(p.contains(want), p);
            robot.interact(() -> dlg.gpu.setValue(ScaleUp.DEFAULT));
        }
    }
}
