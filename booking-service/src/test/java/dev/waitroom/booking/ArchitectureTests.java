package dev.waitroom.booking;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.waitroom.booking.faults.ConditionalOnFaultInjection;
import dev.waitroom.booking.payments.simulator.ConditionalOnFakePaymentProvider;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

class ArchitectureTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.waitroom.booking");

    @Test
    void featureSlicesHaveNoCycles() {
        slices().matching("dev.waitroom.booking.(*)..")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    /** The shop's features build on each other in one direction: catalogue, holds, sale, orders. */
    @Test
    void shopFeaturesDependOnlyOnTheOnesBeneathThem() {
        noClasses()
                .that()
                .resideInAPackage("..booking.catalogue..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..booking.holds..", "..booking.sale..", "..booking.orders..")
                .check(CLASSES);
        noClasses()
                .that()
                .resideInAPackage("..booking.holds..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..booking.sale..", "..booking.orders..")
                .check(CLASSES);
        noClasses()
                .that()
                .resideInAPackage("..booking.sale..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..booking.orders..")
                .check(CLASSES);
    }

    /** Production code never depends on its test doubles: fault injection and the payment simulator stand apart. */
    @Test
    void nothingDependsOnFaultInjectionOrThePaymentSimulator() {
        for (String simulation : new String[] {"..booking.faults..", "..booking.payments.simulator.."}) {
            noClasses()
                    .that()
                    .resideOutsideOfPackage(simulation)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(simulation)
                    .check(CLASSES);
        }
    }

    /** Every bean of fault injection and of the payment simulator exists only while configuration switches it on. */
    @Test
    void faultInjectionAndThePaymentSimulatorAreSwitchedOnByConfiguration() {
        classes()
                .that()
                .resideInAPackage("..booking.faults..")
                .and(areBeans())
                .should()
                .beAnnotatedWith(ConditionalOnFaultInjection.class)
                .check(CLASSES);
        classes()
                .that()
                .resideInAPackage("..booking.payments.simulator..")
                .and(areBeans())
                .should()
                .beAnnotatedWith(ConditionalOnFakePaymentProvider.class)
                .check(CLASSES);
    }

    private static DescribedPredicate<JavaClass> areBeans() {
        return DescribedPredicate.describe(
                "are beans",
                type -> type.isMetaAnnotatedWith(Component.class)
                        || type.isAnnotatedWith(ConfigurationProperties.class));
    }

    @Test
    void domainTypesAreFreeOfWebAndPersistence() {
        ArchRule rule = noClasses()
                .that()
                .areRecords()
                .or()
                .areEnums()
                .and()
                .resideOutsideOfPackage("..web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.springframework.web..", "org.springframework.jdbc..", "jakarta.servlet..", "java.sql..");
        rule.check(CLASSES);
    }

    @Test
    void onlyWebAdaptersAreControllers() {
        classes()
                .that()
                .areAnnotatedWith(org.springframework.web.bind.annotation.RestController.class)
                .should()
                .resideInAPackage("..web..")
                .andShould()
                .notBePublic()
                .check(CLASSES);
    }

    @Test
    void sqlStaysInTheStoresNotInTheWebAdapters() {
        noClasses()
                .that()
                .resideInAPackage("..web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework.jdbc..", "java.sql..")
                .check(CLASSES);
    }

    @Test
    void nothingButTheAccessFeatureTouchesTokenVerification() {
        noClasses()
                .that()
                .resideOutsideOfPackage("..access..")
                .should()
                .dependOnClassesThat()
                .haveSimpleName("AdmissionTokenVerifier")
                .check(CLASSES);
    }
}
