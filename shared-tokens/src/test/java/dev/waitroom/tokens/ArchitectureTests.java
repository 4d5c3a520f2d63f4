package dev.waitroom.tokens;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** shared-tokens stays a small framework-free library with a deliberate public surface. */
class ArchitectureTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.waitroom.tokens");

    @Test
    void usesNoFrameworkAndDoesNoIoOutsideItsHttpSource() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "reactor..", "jakarta..", "java.sql..", "lombok..")
                .because("the library is framework-free")
                .check(CLASSES);
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.waitroom.tokens.http")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.net..", "dev.waitroom.tokens.http")
                .because(
                        "issuing and verifying do no I/O: keys come from a JwksSource, HttpJwksSource the one over HTTP")
                .check(CLASSES);
    }

    @Test
    void thePublicApiExposesNoNimbusOrTinkType() {
        List<String> leaks = new ArrayList<>();
        CLASSES.stream()
                .filter(c -> List.of("dev.waitroom.tokens", "dev.waitroom.tokens.http")
                                .contains(c.getPackageName())
                        && c.getModifiers().contains(JavaModifier.PUBLIC))
                .flatMap(c -> c.getCodeUnits().stream())
                .filter(unit -> unit.getModifiers().contains(JavaModifier.PUBLIC))
                .forEach(unit -> {
                    List<JavaClass> types = new ArrayList<>(unit.getRawParameterTypes());
                    types.add(unit.getRawReturnType());
                    types.stream()
                            .filter(t -> t.getPackageName().startsWith("com.nimbusds")
                                    || t.getPackageName().startsWith("com.google"))
                            .forEach(t -> leaks.add(unit.getFullName() + " uses " + t.getName()));
                });

        assertThat(leaks).isEmpty();
    }

    @Test
    void theInternalPackageIsUsedOnlyByThisLibrary() {
        classes()
                .that()
                .resideInAPackage("dev.waitroom.tokens.internal")
                .should()
                .onlyBeAccessed()
                .byAnyPackage("dev.waitroom.tokens..")
                .check(CLASSES);
    }

    @Test
    void publicTypesAreFinalClassesRecordsEnumsOrInterfaces() {
        classes()
                .that()
                .resideInAnyPackage("dev.waitroom.tokens", "dev.waitroom.tokens.http")
                .and()
                .arePublic()
                .and()
                .areNotInterfaces()
                .and()
                .areNotEnums()
                .and()
                .areNotRecords()
                .should()
                .haveModifier(JavaModifier.FINAL)
                .check(CLASSES);
    }
}
