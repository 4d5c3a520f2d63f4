package dev.waitroom.booking.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.contract.ops.OperatorTokens;
import dev.waitroom.testsupport.TestOperators;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Booking's ops routes (inventory, fault injection) with named operators, through the web kit: each change logged
 * under the operator's name, a viewer who reads and is refused every change, a previous operator token accepted and a
 * third value refused. Tokens are random for each run.
 */
@ExtendWith(OutputCaptureExtension.class)
class OperatorsOnBookingTests extends ShopTestSupport {

    static final String ALICE = OperatorTokens.generate();

    static final String BOB = OperatorTokens.generate();

    static final String BOB_PREVIOUS = OperatorTokens.generate();

    static final String VIC = OperatorTokens.generate();

    @DynamicPropertySource
    static void operators(DynamicPropertyRegistry registry) {
        TestOperators.create()
                .admin("alice", ALICE)
                .admin("bob", BOB, BOB_PREVIOUS)
                .viewer("vic", VIC)
                .register(registry);
    }

    private static final String INVENTORY = "{\"categories\":[{\"name\":\"FLOOR\",\"seats\":3,\"priceCents\":9000}]}";

    private Response inventory(String method, String event, String token, String body) {
        return send(method, "/admin/events/" + event + "/inventory", "Bearer " + token, body);
    }

    @Test
    void inventoryAndFaultChangesAreLoggedUnderTheOperatorsName(CapturedOutput output) {
        String event = newEventId("operators");
        assertThat(inventory("PUT", event, ALICE, INVENTORY).status()).isEqualTo(200);
        assertThat(send("PUT", "/admin/booking/faults", "Bearer " + BOB_PREVIOUS, "{\"latencyMs\":0}")
                        .status())
                .isEqualTo(200);
        assertThat(send("DELETE", "/admin/booking/faults", "Bearer " + BOB, null)
                        .status())
                .isEqualTo(200);

        assertThat(output.getOut())
                .contains(
                        "Ops PUT /admin/events/" + event + "/inventory by alice (admin): 200",
                        "Ops PUT /admin/booking/faults by bob (admin): 200",
                        "Ops DELETE /admin/booking/faults by bob (admin): 200")
                .doesNotContain(ALICE, BOB_PREVIOUS, BOB);
    }

    @Test
    void aViewerReadsTheInventoryAndChangesNothing() {
        String event = newEventId("viewer");
        assertThat(inventory("PUT", event, ALICE, INVENTORY).status()).isEqualTo(200);

        Response read = inventory("GET", event, VIC, null);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("categories").get(0).get("name").asString()).isEqualTo("FLOOR");
        assertThat(send("GET", "/admin/booking/faults", "Bearer " + VIC, null).status())
                .isEqualTo(200);

        inventory("PUT", event, VIC, "{\"categories\":[{\"name\":\"FLOOR\",\"seats\":9,\"priceCents\":1}]}")
                .assertProblem(403, "operator-forbidden");
        send("PUT", "/admin/booking/faults", "Bearer " + VIC, "{\"errorRate\":1.0}")
                .assertProblem(403, "operator-forbidden");
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ?", event))
                .isEqualTo(3);
        assertThat(send("GET", "/admin/booking/faults", "Bearer " + ALICE, null)
                        .json()
                        .get("errorRate")
                        .asDouble())
                .isZero();
    }

    @Test
    void aThirdValueIsRefused() {
        String event = newEventId("third");
        inventory("PUT", event, OperatorTokens.generate(), INVENTORY).assertProblem(401, "ops-credential-required");
        inventory("PUT", event, OperatorTokens.hash(ALICE), INVENTORY).assertProblem(401, "ops-credential-required");
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ?", event))
                .isZero();
    }
}
