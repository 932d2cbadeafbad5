package io.fabriclab.diagram;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The diagram and the edit commands are toolkit-free, so the report and the CLI can use them. */
class DiagramLayeringTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.fabriclab.diagram", "io.fabriclab.edit");

    @Test
    void diagramAndEditNeverTouchJavaFx() {
        noClasses().that().resideInAnyPackage("io.fabriclab.diagram..", "io.fabriclab.edit..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..")
                .check(classes);
    }

    @Test
    void diagramAndEditNeverReachUpToTheUiReportOrCli() {
        noClasses().that().resideInAnyPackage("io.fabriclab.diagram..", "io.fabriclab.edit..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabriclab.ui..", "io.fabriclab.report..",
                        "io.fabriclab.cli..")
                .check(classes);
    }
}
