package dev.waitroom.queue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "dev.waitroom.queue", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    private static final String[] FEATURES = {
        "..queue.join..",
        "..queue.status..",
        "..queue.offers..",
        "..queue.draw..",
        "..queue.event..",
        "..queue.liveness..",
        "..queue.visitor.."
    };

    private static final DescribedPredicate<JavaClass> MODEL_TYPES =
            DescribedPredicate.describe("are records or enums", c -> c.isRecord() || c.isEnum());

    @ArchTest
    static final ArchRule featureSlicesAreFreeOfCycles =
            slices().matching("dev.waitroom.queue.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule modelTypesKnowNoWebRedisOrSpring = noClasses()
            .that()
            .resideInAnyPackage(FEATURES)
            .and(MODEL_TYPES)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "org.springframework..",
                    "org.redisson..",
                    "jakarta.servlet..",
                    "tools.jackson..",
                    "io.micrometer..",
                    "dev.waitroom.web..",
                    "..queue.redis..");

    @ArchTest
    static final ArchRule onlyTheRedisPlumbingTalksToRedisson = noClasses()
            .that()
            .resideOutsideOfPackages("..queue.redis..", "..queue.config..", "..queue.web..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.redisson..");

    @ArchTest
    static final ArchRule theRedisPlumbingKnowsNoFeatureAndNoWeb = noClasses()
            .that()
            .resideInAPackage("..queue.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(FEATURES)
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage("org.springframework.web..", "jakarta.servlet..");

    @ArchTest
    static final ArchRule nothingUsesTheVisitorRoutes = noClasses()
            .that()
            .resideOutsideOfPackage("..queue.visitor..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("..queue.visitor..");

    @ArchTest
    static final ArchRule joiningUsesNoOtherFeature = noClasses()
            .that()
            .resideInAPackage("..queue.join..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "..queue.status..",
                    "..queue.offers..",
                    "..queue.draw..",
                    "..queue.event..",
                    "..queue.liveness..",
                    "..queue.visitor..");

    @ArchTest
    static final ArchRule onlyTheDrawReadsTheEventState = noClasses()
            .that()
            .resideInAnyPackage(
                    "..queue.join..", "..queue.status..", "..queue.offers..", "..queue.liveness..", "..queue.visitor..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("..queue.event..");
}
