package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.fabriclab.FabricLab;

/**
 * The installers name classes and file types in scripts and property files, where the compiler
 * cannot see them; these tests keep them in step with the code and the documentation.
 */
class InstallerLaunchersTest {
    private static final Path INSTALLERS = Path.of("installers");

    private static String buildScript() throws IOException {
        return Files.readString(INSTALLERS.resolve("build.sh"));
    }

    private static String only(Pattern p, String text) {
        Matcher m = p.matcher(text);
        assertTrue(m.find(), "no match for " + p);
        String found = m.group(1);
        assertTrue(!m.find(), "more than one match for " + p);
        return found;
    }

    @Test
    void theEditorLauncherStartsTheClassTheGuiCommandStarts() throws IOException {
        // FabricLab (the desktop entry, file associations) and `fabriclab gui` must open the same
        // editor: the Desktop service that `gui` finds starts ui.Launcher, the installer's main class.
        String mainClass = only(Pattern.compile("--main-class (\\S+)"), buildScript());
        assertEquals(io.fabriclab.ui.Launcher.class.getName(), mainClass);
        assertEquals(io.fabriclab.ui.DesktopProvider.class, Desktop.find().orElseThrow().getClass());
    }

    @Test
    void theCommandLineLauncherRunsTheJarsEntryPoint() throws IOException {
        String mainClass = only(Pattern.compile("main-class=(\\S+?)\""), buildScript());
        assertEquals(FabricLab.class.getName(), mainClass);
    }

    @Test
    void fileAssociationsAreTheDocumentedMimeTypesAndGlobs() throws IOException {
        String readme = Files.readString(INSTALLERS.resolve("README.md"));
        for (String[] expected : new String[][] {
                {"fabric-file.properties", "application/x-fabriclab+json", "fabric.json"},
                {"scenario-file.properties", "application/x-fabriclab-scenario+json", "scenario.json"}}) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(INSTALLERS.resolve("jpackage").resolve(expected[0]))) {
                p.load(r);
            }
            assertEquals(expected[1], p.getProperty("mime-type"), expected[0]);
            assertEquals(expected[2], p.getProperty("extension"), expected[0]);
            // The README's table row: `mime/type` | `*.ext`
            assertTrue(readme.contains("`" + expected[1] + "` | `*." + expected[2] + "`"),
                    "installers/README.md does not document " + expected[1]);
        }
    }

    @Test
    void installerMetadataTakesTheVersionFromThePom() throws IOException {
        // One place for the version: app.env is filtered by Maven (-Pinstaller), never hand-edited.
        String env = Files.readString(INSTALLERS.resolve("jpackage").resolve("app.env"));
        assertTrue(env.contains("APP_VERSION='${project.version}'"), env);
    }
}
