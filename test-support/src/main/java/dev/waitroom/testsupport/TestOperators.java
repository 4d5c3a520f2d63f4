package dev.waitroom.testsupport;

import dev.waitroom.contract.ops.OperatorTokens;
import java.util.ArrayList;
import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Named operators for a test's Spring context, as a deployment lists them ({@code waitroom.security.operators[i]}:
 * name, role, the SHA-256 of the token and of an optional previous token; docs/operating/operating-a-sale.md). The
 * tokens are the test's own, usually {@link OperatorTokens#generate()} for each run.
 */
public final class TestOperators {

    private record Operator(String name, String role, String token, String previous) {}

    private final List<Operator> operators = new ArrayList<>();

    private TestOperators() {}

    /** No operator yet. */
    public static TestOperators create() {
        return new TestOperators();
    }

    /** An operator who may change things. */
    public TestOperators admin(String name, String token) {
        return add(name, "admin", token, null);
    }

    /** An admin whose previous token is still accepted (a rotation under way). */
    public TestOperators admin(String name, String token, String previous) {
        return add(name, "admin", token, previous);
    }

    /** An operator who may read and change nothing. */
    public TestOperators viewer(String name, String token) {
        return add(name, "viewer", token, null);
    }

    /** An operator with the role spelled as the test wants it (the role is case-insensitive). */
    public TestOperators add(String name, String role, String token, String previous) {
        this.operators.add(new Operator(name, role, token, previous));
        return this;
    }

    /** Registers every operator, in order, as {@code @DynamicPropertySource} properties. */
    public void register(DynamicPropertyRegistry registry) {
        for (int i = 0; i < this.operators.size(); i++) {
            Operator operator = this.operators.get(i);
            String prefix = "waitroom.security.operators[" + i + "].";
            registry.add(prefix + "name", operator::name);
            registry.add(prefix + "role", operator::role);
            registry.add(prefix + "token-hash", () -> OperatorTokens.hash(operator.token()));
            if (operator.previous() != null) {
                registry.add(prefix + "token-hash-previous", () -> OperatorTokens.hash(operator.previous()));
            }
        }
    }
}
