package dev.waitroom.contract;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The contract is plain Java: every service and the gateway can use it without pulling a framework in. */
@AnalyzeClasses(packages = "dev.waitroom.contract", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    @ArchTest
    static final ArchRule plainJavaOnly =
            noClasses().should().dependOnClassesThat().resideOutsideOfPackages("java..", "dev.waitroom.contract..");
}
