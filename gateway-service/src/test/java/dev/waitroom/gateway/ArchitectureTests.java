package dev.waitroom.gateway;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTests {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.waitroom.gateway");

    @Test
    void featureSlicesAreFreeOfCycles() {
        slices().matching("dev.waitroom.gateway.(*)..")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void sharedBasicsDependOnNoFeature() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.waitroom.gateway.config..",
                        "dev.waitroom.gateway.problem..",
                        "dev.waitroom.gateway.events..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.waitroom.gateway.admissioncheck..",
                        "dev.waitroom.gateway.status..",
                        "dev.waitroom.gateway.ratelimit..",
                        "dev.waitroom.gateway.page..",
                        "dev.waitroom.gateway.routing..",
                        "dev.waitroom.gateway.guard..")
                .check(CLASSES);
    }

    @Test
    void edgeStatusPolicyIsPureDomain() {
        noClasses()
                .that()
                .haveSimpleNameStartingWith("EdgeStatusPolicy")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "reactor..", "io.micrometer..")
                .check(CLASSES);
    }

    @Test
    void onlyTheAdmissionFeatureReadsTheSessionRegistry() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.waitroom.gateway.admissioncheck..")
                .should()
                .dependOnClassesThat()
                .haveSimpleName("SessionRegistry")
                .check(CLASSES);
    }

    @Test
    void wireFormatsComeFromTheContractModule() {
        // one event-id rule, one problem catalogue, one set of enums for every service: no copy of its own
        noClasses()
                .should()
                .haveSimpleName("EventId")
                .orShould()
                .haveSimpleName("EventPhase")
                .orShould()
                .haveSimpleName("EventMode")
                .orShould()
                .haveSimpleName("OperatingMode")
                .orShould()
                .haveSimpleName("ProblemType")
                .orShould()
                .haveSimpleName("Headers")
                .check(CLASSES);
    }

    @Test
    void noFieldInjection() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("org.springframework.beans.factory.annotation.Autowired")
                .check(CLASSES);
    }
}
