package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input of the fuzzers' kept corpus, checked against the fuzz targets' properties as plain
 * JUnit cases (one per file): the regression check of {@link FabricFuzzTest} and
 * {@link ScenarioFuzzTest} without Jazzer's start-up, which cost about 35 s for these files. The
 * fuzzers themselves run in the Maven profile {@code fuzz} (pom.xml).
 */
class FuzzCorpusTest {
    private static final Path CORPUS = Path.of("src/test/resources/io/fabriclab/io");

    interface Target {
        void check(byte[] data) throws Exception;
    }

    static Stream<Arguments> corpus() throws IOException {
        List<Arguments> cases = new java.util.ArrayList<>();
        add(cases, "FabricFuzzTestInputs/fabricJsonRead", FabricFuzzTest::checkFabricJson);
        add(cases, "FabricFuzzTestInputs/containerlabRead", FabricFuzzTest::checkContainerlab);
        add(cases, "ScenarioFuzzTestInputs/scenarioParse", ScenarioFuzzTest::checkScenario);
        return cases.stream();
    }

    private static void add(List<Arguments> cases, String dir, Target target) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(CORPUS.resolve(dir))) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        // An empty or moved corpus would make this test pass on nothing.
        assertTrue(files.size() >= 5, dir + ": corpus found, " + files.size() + " files");
        for (Path f : files) {
            cases.add(Arguments.of(dir + "/" + f.getFileName(), f, target));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void corpusInputKeepsTheProperty(String name, Path file, Target target) throws Exception {
        target.check(Files.readAllBytes(file));
    }
}
