package dev.waitroom.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/problem-types.md is generated from {@link ProblemType}, the one catalogue every service answers from,
 * so the reference cannot drift from the code: {@code -Dwaitroom.docs.write=true} writes it instead of comparing.
 */
class ProblemTypesReferenceTests {

    private static final Path REFERENCE = Path.of("..", "docs", "reference", "problem-types.md");

    static String generated() {
        StringBuilder md = new StringBuilder();
        md.append("# Problem types\n\n");
        md.append(
                        "Every error any Waitroom service answers is `application/problem+json` (RFC 9457) with one of these ")
                .append("types, whichever service answers it: `type` is `https://waitroom.dev/problems/<slug>`, with ")
                .append("the title and the HTTP status below. When each is answered, and the members some carry ")
                .append("(`retryAfterSeconds`, `challenge`, `field` ...), is in ")
                .append("[the contracts' problem types](contracts.md#problem-types). Generated from ")
                .append("`dev.waitroom.contract.ProblemType`; do not edit: `./mvnw -pl contract verify ")
                .append("-Dtest=ProblemTypesReferenceTests -Dwaitroom.docs.write=true` writes it again.\n\n");
        md.append("| slug | status | title |\n|---|---|---|\n");
        for (ProblemType type : ProblemType.values()) {
            md.append("| `")
                    .append(type.slug())
                    .append("` | ")
                    .append(type.status())
                    .append(" | ")
                    .append(type.title())
                    .append(" |\n");
        }
        return md.toString();
    }

    @Test
    void theReferenceIsTheOneTheCatalogueGenerates() throws Exception {
        String generated = generated();
        if (Boolean.getBoolean("waitroom.docs.write")) {
            Files.writeString(REFERENCE, generated);
        }
        assertThat(REFERENCE).as("-Dwaitroom.docs.write=true writes it").exists();
        assertThat(Files.readString(REFERENCE))
                .as("%s is generated from ProblemType: -Dwaitroom.docs.write=true writes it", REFERENCE)
                .isEqualTo(generated);
    }
}
