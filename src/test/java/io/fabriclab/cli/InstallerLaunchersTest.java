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
        assertEquals(io.fabriclab.ui.DesktopProvider.class, io.fabriclab.app.Desktop.find().orElseThrow().getClass());
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

    @Test
    void theDebScriptsUseOnlyPlaceholdersTheJdksJpackageFillsIn() throws IOException {
        // installers/linux/postinst and prerm are copies of jpackage's templates; jpackage replaces
        // placeholder lines (DESKTOP_COMMANDS_INSTALL, COMMON_SCRIPTS, ...) by shell code and leaves an
        // unknown one as is, which the shell then runs as a command. The JDK 17 template's
        // UTILITY_SCRIPTS made `dpkg -r fabriclab` fail under JDK 25's jpackage ("not found"). Every
        // placeholder line of ours must be one of the build JDK's template (read from its jrt image).
        java.nio.file.FileSystem jrt = java.nio.file.FileSystems.getFileSystem(java.net.URI.create("jrt:/"));
        Pattern placeholder = Pattern.compile("(?m)^\\s*([A-Z][A-Z_]{3,})\\s*$");
        for (String script : new String[] {"postinst", "prerm"}) {
            Path template = jrt.getPath("modules", "jdk.jpackage", "jdk/jpackage/internal/resources/template." + script);
            assertTrue(Files.exists(template), "the build JDK has jpackage's " + template);
            java.util.Set<String> known = new java.util.HashSet<>();
            Matcher t = placeholder.matcher(Files.readString(template));
            while (t.find()) {
                known.add(t.group(1));
            }
            Matcher ours = placeholder.matcher(Files.readString(INSTALLERS.resolve("linux").resolve(script)));
            int n = 0;
            while (ours.find()) {
                n++;
                assertTrue(known.contains(ours.group(1)), "installers/linux/" + script + " has the placeholder "
                        + ours.group(1) + ", which this JDK's jpackage template does not: " + known);
            }
            assertTrue(n > 0, script + " keeps jpackage's desktop commands");
            // jpackage replaces a placeholder wherever it appears, so one inside a comment or a
            // command pastes shell code into it (a comment naming the removal commands did so).
            for (String line : Files.readAllLines(INSTALLERS.resolve("linux").resolve(script))) {
                for (String word : known) {
                    assertTrue(!line.contains(word) || line.strip().equals(word),
                            "installers/linux/" + script + " names " + word + " outside a placeholder line: " + line);
                }
            }
        }
    }
}
