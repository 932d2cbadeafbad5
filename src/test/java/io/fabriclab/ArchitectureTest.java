package io.fabriclab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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

    @ArchTest
    static final ArchRule modelDependsOnNothingHigher = noClasses()
            .that().resideInAPackage("io.fabriclab.model..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.fabriclab.topology..", "io.fabriclab.routing..", "io.fabriclab.sim..",
                    "io.fabriclab.workload..", "io.fabriclab.io..", "io.fabriclab.diagram..",
                    "io.fabriclab.report..", "io.fabriclab.cli..", "io.fabriclab.ui..");

    @ArchTest
    static final ArchRule routingAndWorkloadStayLow = noClasses()
            .that().resideInAnyPackage("io.fabriclab.routing..", "io.fabriclab.workload..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.fabriclab.topology..", "io.fabriclab.sim..", "io.fabriclab.io..",
                    "io.fabriclab.diagram..", "io.fabriclab.report..", "io.fabriclab.cli..", "io.fabriclab.ui..");

    @ArchTest
    static final ArchRule analysisAndSimulatorDoNotKnowFilesOrScreens = noClasses()
            .that().resideInAnyPackage("io.fabriclab.topology..", "io.fabriclab.sim..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.fabriclab.io..", "io.fabriclab.diagram..", "io.fabriclab.report..",
                    "io.fabriclab.cli..", "io.fabriclab.ui..")
            .allowEmptyShould(true);

    /** The diagram and the edit commands are toolkit-free, so the report and the CLI can use them. */
    @ArchTest
    static final ArchRule diagramAndEditNeverReachUpToTheUiReportOrCli = noClasses()
            .that().resideInAnyPackage("io.fabriclab.diagram..", "io.fabriclab.edit..")
            .should().dependOnClassesThat().resideInAnyPackage("io.fabriclab.ui..", "io.fabriclab.report..",
                    "io.fabriclab.cli..");

    @ArchTest
    static final ArchRule reportUsesOnlyWhatItReviews = noClasses()
            .that().resideInAPackage("io.fabriclab.report..")
            .should().dependOnClassesThat().resideInAnyPackage("io.fabriclab.cli..", "io.fabriclab.ui..",
                    "io.fabriclab.edit..")
            .because("the report reads model, topology, routing, diagram, sim results and io (docs/architecture.md); "
                    + "the CLI and the UI call it, never the other way round");

    @ArchTest
    static final ArchRule nothingBelowTheReportKnowsIt = noClasses()
            .that().resideInAnyPackage("io.fabriclab.model..", "io.fabriclab.routing..", "io.fabriclab.workload..",
                    "io.fabriclab.topology..", "io.fabriclab.sim..", "io.fabriclab.io..", "io.fabriclab.diagram..")
            .should().dependOnClassesThat().resideInAPackage("io.fabriclab.report..");

    @ArchTest
    static final ArchRule onlyTheUiAndTheEntryPointKnowTheUi = noClasses()
            .that().resideOutsideOfPackages("io.fabriclab.ui..")
            .and().doNotHaveFullyQualifiedName("io.fabriclab.FabricLab")
            .should().dependOnClassesThat().resideInAPackage("io.fabriclab.ui..")
            .because("the CLI and the UI call the same services; nothing below the UI knows it "
                    + "(the CLI reaches the editor through the io.fabriclab.cli.Desktop service)");

    /** No reflection as a back door around the rule above (the CLI once started the editor by class name). */
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
}
