package dev.waitroom.queue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "dev.waitroom.queue", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    @ArchTest
    static final ArchRule featureSlicesAreFreeOfCycles =
            slices().matching("dev.waitroom.queue.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theDomainKnowsNoWebRedisOrSpring = noClasses().that().resideInAPackage("..queue.domain..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "org.redisson..",
                    "jakarta.servlet..", "tools.jackson..", "io.micrometer..");

    @ArchTest
    static final ArchRule onlyTheStoreTalksToRedis = noClasses().that().resideOutsideOfPackages("..queue.store..",
                    "..queue.config..", "..queue.web..")
            .should().dependOnClassesThat().resideInAPackage("org.redisson..");

    @ArchTest
    static final ArchRule featuresDoNotUseEachOther = noClasses().that().resideInAnyPackage("..queue.visitor..",
                    "..queue.draw..", "..queue.admission..")
            .should().dependOnClassesThat().resideInAnyPackage("..queue.event..");

    @ArchTest
    static final ArchRule theStoreKnowsNoWeb = noClasses().that().resideInAPackage("..queue.store..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..", "jakarta.servlet..");
}
