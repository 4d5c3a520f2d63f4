package dev.waitroom.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTests {

    @Test
    void readsEveryKindOfLineTheWorkloadWritesAndSkipsUnknownOnes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("history.jsonl");
        Files.writeString(file, """
                {"type":"run","seed":31,"profile":"p"}
                {"type":"event","event":"e1","ceiling":24,"createdAt":5}
                {"type":"op","id":1,"process":"v1","region":"","event":"e1","f":"join","invokedAt":10,"completedAt":12,"outcome":"ok","status":201,"value":{"receipt":"4","state":"WAITING"}}
                {"type":"op","id":2,"process":"v2","region":"r2","event":"e1","f":"claim","invokedAt":11,"completedAt":19,"outcome":"unknown","error":"timeout"}
                {"type":"op","id":3,"process":"ops","region":"","event":"e1","f":"pause","invokedAt":13,"completedAt":14,"outcome":"refused","status":503,"problem":"store-unavailable"}
                {"type":"sample","event":"e1","at":15,"live":7,"ceiling":24}
                {"type":"nemesis","fault":"KILL","target":"gateway-service","at":16,"healedAt":18}
                {"type":"later-kind","x":1}
                """);
        History h = History.read(file);
        assertThat(h.seed()).isEqualTo(31);
        assertThat(h.events()).containsExactly(new History.Sale("e1", 24, 5));
        assertThat(h.operations())
                .extracting(History.Op::outcome)
                .containsExactly(History.Outcome.OK, History.Outcome.UNKNOWN, History.Outcome.REFUSED);
        assertThat(h.operations().get(0).text("receipt")).isEqualTo("4");
        assertThat(h.operations().get(1).region()).isEqualTo("r2");
        assertThat(h.operations().get(2).problem()).isEqualTo("store-unavailable");
        assertThat(h.samples()).containsExactly(new History.Sample("e1", 15, 7, 24));
        assertThat(h.faults()).containsExactly(new History.Fault("KILL", "gateway-service", 16, 18));
    }

    @Test
    void aLostJoinIsSettledByTheNextAnswerThatNamesTheEntryOrSaysNoPlaceIsLeft(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("history.jsonl");
        Files.writeString(file, """
                {"type":"op","id":1,"process":"v1","region":"","event":"e1","f":"join","invokedAt":10,"completedAt":18,"outcome":"unknown","error":"timeout"}
                {"type":"op","id":2,"process":"v1","region":"","event":"e1","f":"join","invokedAt":20,"completedAt":21,"outcome":"refused","status":503,"problem":"https://waitroom.dev/problems/upstream-unavailable"}
                {"type":"op","id":3,"process":"v1","region":"","event":"e1","f":"join","invokedAt":22,"completedAt":23,"outcome":"ok","status":200,"value":{"receipt":"4"}}
                {"type":"op","id":4,"process":"v2","region":"","event":"e1","f":"join","invokedAt":10,"completedAt":18,"outcome":"unknown","error":"timeout"}
                {"type":"op","id":5,"process":"v2","region":"","event":"e1","f":"join","invokedAt":20,"completedAt":21,"outcome":"ok","status":201,"value":{"receipt":"5"}}
                {"type":"op","id":6,"process":"v3","region":"","event":"e1","f":"join","invokedAt":10,"completedAt":18,"outcome":"unknown","error":"timeout"}
                {"type":"op","id":7,"process":"v3","region":"","event":"e1","f":"join","invokedAt":20,"completedAt":21,"outcome":"refused","status":409,"problem":"https://waitroom.dev/problems/sold-out"}
                {"type":"op","id":8,"process":"v4","region":"","event":"e1","f":"join","invokedAt":10,"completedAt":18,"outcome":"unknown","error":"timeout"}
                {"type":"op","id":9,"process":"v4","region":"","event":"e1","f":"join","invokedAt":20,"completedAt":21,"outcome":"refused","status":429,"problem":"https://waitroom.dev/problems/rate-limited"}
                """);
        List<History.Op> ops = History.read(file).operations();
        assertThat(HistoryChecker.resolveJoin(ops.subList(0, 3), 0))
                .as("a 5xx says nothing; the 200 after it names the entry the lost join made")
                .isEqualTo(HistoryChecker.JoinResolution.TOOK_EFFECT);
        assertThat(HistoryChecker.resolveJoin(ops.subList(3, 5), 0))
                .isEqualTo(HistoryChecker.JoinResolution.DID_NOT_TAKE_EFFECT);
        assertThat(HistoryChecker.resolveJoin(ops.subList(5, 7), 0))
                .as("sold out, the queue still answers an entry the visitor holds: the lost join made none")
                .isEqualTo(HistoryChecker.JoinResolution.REFUSED_AFTER);
        assertThat(HistoryChecker.resolveJoin(ops.subList(7, 9), 0))
                .as("a refusal that does not depend on the entry settles nothing")
                .isEqualTo(HistoryChecker.JoinResolution.UNRESOLVED);
    }

    @Test
    void aPausedWindowEndsAtTheFirstResumeThatMayHaveTakenEffectNotOnlyAtAnAcknowledgedOne(@TempDir Path dir)
            throws Exception {
        // seed 2300441586 (30 minutes): a resume answered 503 upstream-unavailable while the coordinator's connections
        // were reset had been applied; the claims after it were counted as admitted while paused
        Path file = dir.resolve("history.jsonl");
        Files.writeString(file, """
                {"type":"op","id":1,"process":"ops","region":"","event":"e1","f":"pause","invokedAt":10,"completedAt":12,"outcome":"ok","status":200}
                {"type":"op","id":2,"process":"ops","region":"","event":"e2","f":"resume","invokedAt":13,"completedAt":14,"outcome":"ok","status":200}
                {"type":"op","id":3,"process":"ops","region":"","event":"e1","f":"resume","invokedAt":15,"completedAt":16,"outcome":"refused","status":409,"problem":"https://waitroom.dev/problems/state-conflict"}
                {"type":"op","id":4,"process":"ops","region":"","event":"e1","f":"resume","invokedAt":20,"completedAt":21,"outcome":"refused","status":503,"problem":"https://waitroom.dev/problems/upstream-unavailable"}
                {"type":"op","id":5,"process":"ops","region":"","event":"e1","f":"resume","invokedAt":25,"completedAt":26,"outcome":"ok","status":200}
                {"type":"op","id":6,"process":"ops","region":"","event":"e1","f":"sold-out","invokedAt":30,"completedAt":31,"outcome":"ok","status":200}
                {"type":"op","id":7,"process":"ops","region":"","event":"e1","f":"round","invokedAt":40,"completedAt":48,"outcome":"unknown","error":"timeout"}
                {"type":"op","id":8,"process":"ops","region":"","event":"e1","f":"pause","invokedAt":50,"completedAt":51,"outcome":"ok","status":200}
                """);
        List<History.Op> ops = History.read(file).operations();
        assertThat(HistoryChecker.claimableAgainFrom(ops, 0))
                .as("another event's resume and a 4xx refusal end nothing; the 503 may have been applied")
                .isEqualTo(20);
        assertThat(HistoryChecker.claimableAgainFrom(ops, 5))
                .as("a round with no answer")
                .isEqualTo(40);
        assertThat(HistoryChecker.claimableAgainFrom(ops, 7)).as("none follows").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aVerdictFailsOnAnyCounterExampleAndShowsAtMostTwelve() {
        Verdict.Builder broken = new Verdict.Builder("broken");
        for (int i = 0; i < 20; i++) {
            broken.violation("case " + i);
        }
        Verdict.Builder fine = new Verdict.Builder("fine");
        fine.checked(3);
        Verdict v = new Verdict(7, List.of(fine.build(), broken.build()));
        assertThat(v.passed()).isFalse();
        assertThat(v.text())
                .contains("(seed 7): FAIL")
                .contains("ok   fine")
                .contains("FAIL broken")
                .contains("counter-example: case 11")
                .doesNotContain("case 12\n")
                .contains("... and 8 more");
    }

    @Test
    void anInvariantTheRunGaveNothingToCheckFailsTheVerdict() {
        Verdict.Builder fine = new Verdict.Builder("fine");
        fine.checked(3);
        Verdict.Builder idle = new Verdict.Builder("idle");
        Verdict v = new Verdict(7, List.of(fine.build(), idle.build()));
        assertThat(v.invariants().get(1).evaluated()).isFalse();
        assertThat(v.passed()).isFalse();
        assertThat(v.text())
                .contains("(seed 7): FAIL")
                .contains("ok   fine")
                .contains("FAIL idle")
                .contains("not evaluated: the run gave this invariant nothing to check");
    }
}
