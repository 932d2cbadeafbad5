package io.fabriclab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The house rules of docs/architecture.md, enforced. The classes are imported once for all rules;
 * src/test/resources/archunit.properties keeps ArchUnit from resolving every referenced JDK and
 * library class from the class path (only io.fabriclab is analysed).
 */
@AnalyzeClasses(packages = "io.fabriclab", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule onlyUiImportsJavaFx = noClasses()
            .that().resideOutsideOfPackage("io.fabriclab.ui..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..", "com.sun.javafx..")
            .because("the model, analysis and simulator must run headless; only ui imports JavaFX");

    /**
     * The house's floors, bottom to top (docs/architecture.md): each layer names what it may use, and
     * every class of io.fabriclab sits in one of them, so a new package fails here until it is
     * placed. {@code app} holds the services the CLI, the UI, the sweeps and the report share: the run
     * service ({@code app.RunService}, over sim and io) and the services the command line finds at
     * run time ({@code app.Desktop}, implemented by {@code ui}), so neither {@code cli} nor {@code ui}
     * knows the other.
     */
    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("model").definedBy("io.fabriclab.model..")
            .layer("routing").definedBy("io.fabriclab.routing..")
            .layer("workload").definedBy("io.fabriclab.workload..")
            .layer("topology").definedBy("io.fabriclab.topology..")
            .layer("sim").definedBy("io.fabriclab.sim..")
            .layer("io").definedBy("io.fabriclab.io..")
            .layer("diagram").definedBy("io.fabriclab.diagram..")
            .layer("edit").definedBy("io.fabriclab.edit..")
            .layer("sweep").definedBy("io.fabriclab.sweep..")
            .layer("counters").definedBy("io.fabriclab.counters..")
            .layer("report").definedBy("io.fabriclab.report..")
            .layer("app").definedBy("io.fabriclab.app..")
            .layer("cli").definedBy("io.fabriclab.cli..")
            .layer("ui").definedBy("io.fabriclab.ui..")
            .layer("entry point").definedBy("io.fabriclab")
            .whereLayer("model").mayNotAccessAnyLayer()
            .whereLayer("routing").mayOnlyAccessLayers("model")
            .whereLayer("workload").mayOnlyAccessLayers("model")
            .whereLayer("topology").mayOnlyAccessLayers("model", "routing")
            .whereLayer("sim").mayOnlyAccessLayers("model", "routing", "workload")
            .whereLayer("io").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim")
            .whereLayer("diagram").mayOnlyAccessLayers("model", "topology")
            .whereLayer("edit").mayOnlyAccessLayers("model", "topology", "diagram")
            .whereLayer("app").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim", "io")
            .whereLayer("sweep").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim", "io", "app")
            .whereLayer("counters").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim", "io", "diagram",
                    "app")
            .whereLayer("report").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim", "io", "diagram",
                    "sweep", "counters", "app")
            .whereLayer("cli").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim", "io", "diagram",
                    "edit", "sweep", "counters", "report", "app")
            .whereLayer("ui").mayOnlyAccessLayers("model", "routing", "workload", "topology", "sim", "io", "diagram",
                    "edit", "sweep", "counters", "report", "app")
            .whereLayer("entry point").mayOnlyAccessLayers("cli", "ui", "app", "model")
            .ensureAllClassesAreContainedInArchitecture()
            .because("nothing lower uses something higher, the CLI and the UI call the same services, and a new "
                    + "package is placed on purpose (docs/architecture.md)");

    /**
     * The simulator stands on the model, routing and workloads only: what it needs of a switch's
     * model (port-to-port latency, trimmed size: {@code model.SwitchLatency}) and of a link's
     * physical layer (interface delay and PFC response per speed: {@code model.PhyTiming}) lives in
     * the model, where the fabric analysis ({@code topology}) reads the same tables (issue 30).
     */
    @ArchTest
    static final ArchRule simDoesNotImportTopology = noClasses()
            .that().resideInAPackage("io.fabriclab.sim..")
            .should().dependOnClassesThat().resideInAPackage("io.fabriclab.topology..")
            .because("the simulator reads switch and PHY tables from the model, not the fabric analysis (issue 30)");

    /** The Jackson classes that build a mapper or a parser factory: only io.JsonInput calls them. */
    private static final java.util.Set<String> MAPPERS = java.util.Set.of("com.fasterxml.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.databind.json.JsonMapper", "com.fasterxml.jackson.dataformat.yaml.YAMLMapper",
            "com.fasterxml.jackson.core.JsonFactory", "com.fasterxml.jackson.databind.MappingJsonFactory");

    /**
     * One reader: every Jackson mapper is made by {@code io.JsonInput} (its strict reader for user
     * files, its plain mapper for FabricLab's own output), so a lenient reader cannot come back
     * through another class (compare once parsed scenarios with a plain mapper and ran a file simulate
     * refuses). Constructors and the builders that make one ({@code JsonMapper.builder()},
     * {@code copy()}) count; the containerlab writer's {@code YAMLMapper.builder} writes YAML only,
     * and YAML is read by {@code io.YamlTree} (SnakeYAML), see the rule below.
     */
    @ArchTest
    static final ArchRule oneJsonReader = noClasses()
            .that().doNotHaveFullyQualifiedName("io.fabriclab.io.JsonInput")
            .should().callConstructorWhere(new com.tngtech.archunit.base.DescribedPredicate<>("a Jackson mapper's constructor") {
                @Override
                public boolean test(com.tngtech.archunit.core.domain.JavaConstructorCall call) {
                    return MAPPERS.contains(call.getTargetOwner().getName());
                }
            })
            .orShould().callMethodWhere(new com.tngtech.archunit.base.DescribedPredicate<>("JsonMapper.builder() or a mapper's copy()") {
                @Override
                public boolean test(com.tngtech.archunit.core.domain.JavaMethodCall call) {
                    String owner = call.getTargetOwner().getName();
                    return (owner.equals("com.fasterxml.jackson.databind.json.JsonMapper") && call.getName().equals("builder"))
                            || (MAPPERS.contains(owner) && call.getName().equals("copy"));
                }
            })
            .because("only io.JsonInput creates a Jackson mapper: one strict reader for every file (issue 31)");

    /** YAML is read in one place, with its limits (aliases, nesting, size): io.YamlTree. */
    @ArchTest
    static final ArchRule oneYamlReader = noClasses()
            .that().doNotHaveFullyQualifiedName("io.fabriclab.io.YamlTree")
            .should().callConstructorWhere(new com.tngtech.archunit.base.DescribedPredicate<>("SnakeYAML's Yaml constructor") {
                @Override
                public boolean test(com.tngtech.archunit.core.domain.JavaConstructorCall call) {
                    return call.getTargetOwner().getName().equals("org.yaml.snakeyaml.Yaml");
                }
            });

    /** No reflection as a back door around the layers (the CLI once started the editor by class name). */
    @ArchTest
    static final ArchRule theCliLoadsNoClassByName = noClasses()
            .that().resideInAPackage("io.fabriclab.cli..")
            .should().callMethod(Class.class, "forName", String.class)
            .orShould().callMethod(Class.class, "forName", String.class, boolean.class, ClassLoader.class);

    /**
     * Every package is its own slice ({@code (**)}: io.fabriclab.ui and io.fabriclab.ui.live are two),
     * so a cycle between a package and its sub-package counts too ({@code (*)} merged them). The live
     * view (ui.live) builds on the editor (ui); the editor reaches it only through
     * {@link io.fabriclab.ui.LiveViewProvider}, found with ServiceLoader.
     */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.fabriclab.(**)").should().beFreeOfCycles();

    /**
     * The rules catch what they are for: a class in a package the layers do not place, and a class
     * that makes its own Jackson mapper (test fixtures in io.fabriclab.unplaced, imported here only).
     */
    @org.junit.jupiter.api.Test
    void aPackageLeftUnplacedAndALenientMapperFail() {
        com.tngtech.archunit.core.domain.JavaClasses stray = new com.tngtech.archunit.core.importer.ClassFileImporter()
                .importClasses(io.fabriclab.unplaced.LenientReader.class);
        com.tngtech.archunit.lang.EvaluationResult placed = layers.evaluate(stray);
        org.junit.jupiter.api.Assertions.assertTrue(placed.hasViolation(), "an unplaced package is a violation");
        org.junit.jupiter.api.Assertions.assertTrue(placed.getFailureReport().toString().contains("io.fabriclab.unplaced.LenientReader"),
                placed.getFailureReport().toString());
        com.tngtech.archunit.lang.EvaluationResult mapper = oneJsonReader.evaluate(stray);
        org.junit.jupiter.api.Assertions.assertTrue(mapper.hasViolation(), "a mapper made outside io.JsonInput is a violation");
        org.junit.jupiter.api.Assertions.assertTrue(mapper.getFailureReport().toString().contains("ObjectMapper.<init>"),
                mapper.getFailureReport().toString());
    }
}
