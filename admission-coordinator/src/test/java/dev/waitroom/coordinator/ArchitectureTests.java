package dev.waitroom.coordinator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "dev.waitroom.coordinator", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    @ArchTest
    static final ArchRule featureSlicesAreFreeOfCycles =
            slices().matching("dev.waitroom.coordinator.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule domainIsFreeOfWebTypes = noClasses()
            .that()
            .resideInAnyPackage(
                    "..coordinator.event",
                    "..coordinator.lease",
                    "..coordinator.grants",
                    "..coordinator.rate",
                    "..coordinator.problems",
                    "..coordinator.queue",
                    "..coordinator.keys",
                    "..coordinator.tick")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.springframework.web..", "org.springframework.http..", "jakarta.servlet..");

    @ArchTest
    static final ArchRule domainDoesNotReachIntoAdapters = noClasses()
            .that()
            .resideOutsideOfPackages("..queue.http..", "..grants.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("..queue.http..", "..grants.redis..");

    @ArchTest
    static final ArchRule rateControllerCoreIsFrameworkFree = noClasses()
            .that()
            .haveSimpleNameStartingWith("Rate")
            .and()
            .resideInAPackage("..coordinator.rate")
            .and()
            .doNotHaveSimpleName("RateConfiguration")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.springframework..", "io.micrometer..");

    @ArchTest
    static final ArchRule redisOnlyInTheRegistryAdapter = noClasses()
            .that()
            .resideOutsideOfPackage("..grants.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.redisson..");

    @ArchTest
    static final ArchRule neverDependsOnOtherServices = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.waitroom.queue..", "dev.waitroom.booking..", "dev.waitroom.gateway..");
}
