package io.fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.launcher.EngineFilter;

/**
 * Issue 35 item 16: tests must never touch the user's preferences nor leave files behind. Runs
 * every UI test class (packages io.fabriclab.ui and io.fabriclab.ui.live) in this JVM, then checks
 * that the user's own preferences store ({@code ~/.java/.userPrefs/io/fabriclab}, where
 * java.util.prefs keeps them on Linux) and the system temporary directory hold nothing new from
 * FabricLab (entries named fabriclab*, as the code and the tests name theirs). Other processes may
 * use the temporary directory meanwhile: only FabricLab's names count.
 *
 * <p>Tagged "leaks" and left out of the default run (it runs the UI tests a second time):
 * {@code mvn test -Dtest=LeavesNothingBehindTest -Dfabriclab.test.excludedGroups=}.
 */
@Tag("leaks")
class LeavesNothingBehindTest {

    /** Every entry under {@code dir} (recursively) with its last-modified time; empty when it does not exist. */
    static Map<String, Long> snapshot(Path dir) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                out.put(dir.relativize(p).toString(), Files.getLastModifiedTime(p).toMillis());
            }
        }
        return out;
    }

    /** The system temp directory's entries whose names FabricLab uses. */
    static Map<String, Long> fabriclabTemp(Path tmp) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(tmp)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).startsWith("fabriclab")) {
                    out.put(p.getFileName().toString(), Files.getLastModifiedTime(p).toMillis());
                }
            }
        }
        return out;
    }

    @Test
    void theUiTestsLeaveTheUsersPreferencesAndTheTempDirectoryAsTheyFoundThem() throws Exception {
        Path userPrefs = Path.of(System.getProperty("user.home"), ".java", ".userPrefs", "io", "fabriclab");
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        assertTrue(!Path.of(System.getProperty("java.util.prefs.userRoot", System.getProperty("user.home")))
                .toAbsolutePath().equals(Path.of(System.getProperty("user.home")).toAbsolutePath()),
                "the test JVM keeps its preferences away from the user's (pom.xml: java.util.prefs.userRoot)");
        Map<String, Long> prefsBefore = snapshot(userPrefs);
        Map<String, Long> tmpBefore = fabriclabTemp(tmp);

        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectPackage("io.fabriclab.ui"))
                .filters(EngineFilter.includeEngines("junit-jupiter"),
                        org.junit.platform.launcher.TagFilter.excludeTags("leaks"))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        assertTrue(summary.getTestsSucceededCount() > 100, "the UI tests ran: " + summary.getTestsSucceededCount());

        assertEquals(prefsBefore, snapshot(userPrefs), "the user's preferences under " + userPrefs);
        Map<String, Long> tmpAfter = fabriclabTemp(tmp);
        tmpAfter.keySet().removeAll(tmpBefore.keySet());
        assertEquals(Map.of(), tmpAfter, "new FabricLab entries in " + tmp);
    }
}
