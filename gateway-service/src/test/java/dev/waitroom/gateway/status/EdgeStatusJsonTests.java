package dev.waitroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.EstimateCaveat;
import dev.waitroom.contract.queue.QueueStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class EdgeStatusJsonTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void writesWhatJacksonWritesForSeededStatuses() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<String> texts = Arrays.asList(
                null,
                "",
                "Floor is nearly sold out",
                "quote \" backslash \\ tab \t newline \n",
                "\u0000\u001f control",
                "émoji 🎟 and 中文",
                "</script><script>alert(1)</script>");
        for (int i = 0; i < 500; i++) {
            long min = random.nextInt(1_000_000);
            QueueStatus status = new QueueStatus(
                    "WAITING",
                    EventPhase.values()[random.nextInt(EventPhase.values().length)],
                    OperatingMode.values()[random.nextInt(OperatingMode.values().length)],
                    random.nextBoolean() ? null : new QueueStatus.Position(min, min + random.nextInt(1000)),
                    random.nextBoolean()
                            ? null
                            : new QueueStatus.EstimatedWait(
                                    min,
                                    min + random.nextInt(5000),
                                    random.nextBoolean()
                                            ? null
                                            : EstimateCaveat.values()[random.nextInt(EstimateCaveat.values().length)]),
                    null,
                    random.nextInt(60),
                    texts.get(random.nextInt(texts.size())),
                    random.nextBoolean() ? Long.toString(random.nextLong() & Long.MAX_VALUE, 36) : "r-\"1",
                    random.nextBoolean()
                            ? null
                            : new dev.waitroom.contract.queue.AdmissionHold(
                                    dev.waitroom.contract.queue.AdmissionHold.Cause.values()[
                                            random.nextInt(
                                                    dev.waitroom.contract.queue.AdmissionHold.Cause.values().length)]
                                            .name(),
                                    texts.get(random.nextInt(texts.size())),
                                    random.nextBoolean() ? null : Instant.ofEpochSecond(random.nextInt(2_000_000_000))),
                    null);
            byte[] ours = EdgeStatusJson.write(status);
            assertThat(JSON.readTree(ours))
                    .as("seed %d: %s", seed, new String(ours, StandardCharsets.UTF_8))
                    .isEqualTo(JSON.readTree(JSON.writeValueAsBytes(status)));
        }
    }

    @Test
    void refusesAnOfferedStatus() {
        QueueStatus offered = new QueueStatus(
                "OFFERED",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                null,
                new QueueStatus.Offer(Instant.now()),
                2,
                null,
                "r",
                null,
                null);
        assertThatThrownBy(() -> EdgeStatusJson.write(offered)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsOnlyTheNamedCookieFromCookieHeaders() {
        assertThat(EdgeStatusWebFilter.cookieValue(null, "wr_qt")).isNull();
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("wr_vid=abc; wr_qt=t.1"), "wr_qt"))
                .isEqualTo("t.1");
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("wr_vid=abc; wr_qt=t.1"), "wr_vid"))
                .isEqualTo("abc");
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("xwr_qt=evil;wr_qt=good"), "wr_qt"))
                .isEqualTo("good");
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("wr_qtx=evil"), "wr_qt"))
                .isNull();
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("a=1", "wr_qt=second"), "wr_qt"))
                .isEqualTo("second");
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("wr_qt=first; wr_qt=again"), "wr_qt"))
                .isEqualTo("first");
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("wr_qt"), "wr_qt")).isNull();
        assertThat(EdgeStatusWebFilter.cookieValue(List.of("wr_qt="), "wr_qt")).isEmpty();
        assertThat(EdgeStatusWebFilter.cookieValue(List.of(";;  ;wr_qt=v ;"), "wr_qt"))
                .isEqualTo("v");
    }
}
