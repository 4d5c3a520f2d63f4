package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AllAtOnceTests {

    @Test
    void everyCallRunsAtTheSameTimeAndAnswersInOrder() throws Exception {
        // each call waits for all the others: only calls that really run together get past the barrier
        CyclicBarrier together = new CyclicBarrier(8);
        List<Callable<Integer>> calls = IntStream.range(0, 8)
                .<Callable<Integer>>mapToObj(i -> () -> {
                    together.await(10, TimeUnit.SECONDS);
                    return i;
                })
                .toList();

        assertThat(AllAtOnce.call(calls)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void aFailedCallFailsTheRaceWithItsOwnException() {
        List<Callable<String>> calls = List.of(() -> "fine", () -> {
            throw new IllegalStateException("lost the race");
        });

        assertThatThrownBy(() -> AllAtOnce.call(calls))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("lost the race");
    }

    @Test
    void theSameCallManyTimesRunsOncePerTime() throws Exception {
        AtomicInteger made = new AtomicInteger();

        assertThat(AllAtOnce.call(3, made::incrementAndGet)).containsExactlyInAnyOrder(1, 2, 3);
    }
}
