package io.fabriclab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The house rules of ARCHITECTURE.md, enforced. */
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

    @ArchTest
    static final ArchRule reportUsesOnlyWhatItReviews = noClasses()
            .that().resideInAPackage("io.fabriclab.report..")
            .should().dependOnClassesThat().resideInAnyPackage("io.fabriclab.cli..", "io.fabriclab.ui..",
                    "io.fabriclab.edit..")
            .because("the report reads model, topology, routing, diagram, sim results and io (ARCHITECTURE.md); "
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
            .because("the CLI and the UI call the same services; nothing below the UI knows it");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.fabriclab.(*)..").should().beFreeOfCycles();
}
