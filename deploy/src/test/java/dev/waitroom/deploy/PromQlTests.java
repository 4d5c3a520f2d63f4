package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The selector extraction {@link DashboardSelectorsTests} relies on ({@link PromQl}) and the exposition-format reader
 * ({@link PrometheusText}): every construct the dashboard and the alert rules use, the ones PromQL has besides, and
 * malformed input refused rather than silently read as fewer selectors.
 */
class PromQlTests {

    private static List<String> selectors(String expr) {
        return PromQl.selectors(expr).stream().map(PromQl.Selector::toString).toList();
    }

    @Test
    void aggregationsFunctionsAndRangesLeaveOnlyTheSelectors() {
        assertThat(selectors("sum by (event) (rate(waitroom_queue_joins_total[1m]))"))
                .containsExactly("waitroom_queue_joins_total");
        assertThat(selectors("max by (event, mode) (waitroom_coordinator_mode) == 1"))
                .containsExactly("waitroom_coordinator_mode");
        assertThat(
                        selectors(
                                "histogram_quantile(0.95, sum by (le) (rate(waitroom_booking_request_latency_seconds_bucket[1m]))) * 1000"))
                .containsExactly("waitroom_booking_request_latency_seconds_bucket");
        assertThat(selectors("sum(rate(x_total[5m])) by (job) / on (job) group_left (team) max without (instance) (y)"))
                .as("clauses after the argument, vector matching with label lists")
                .containsExactly("x_total", "y");
        assertThat(selectors("max by (event) (changes(waitroom_coordinator_lease_generation[10m])) > 3"))
                .containsExactly("waitroom_coordinator_lease_generation");
        assertThat(selectors("topk(3, sum by (le) (a)) or count_values(\"v\", b) unless quantile(0.9, c)"))
                .containsExactly("a", "b", "c");
        assertThat(selectors("min(waitroom_coordinator_signing_key_retires_in_seconds) < 7 * 86400"))
                .containsExactly("waitroom_coordinator_signing_key_retires_in_seconds");
    }

    @Test
    void matchersKeepTheirOperatorAndUnescapedValue() {
        List<PromQl.Selector> s =
                PromQl.selectors("sum(rate(http_server_requests_seconds_count{application=\"booking-service\","
                        + "status=~\"5..\", uri!=\"/actuator/prometheus\",method!~'HEAD|OPTIONS',}[1m]))");
        assertThat(s).hasSize(1);
        assertThat(s.get(0).metric()).isEqualTo("http_server_requests_seconds_count");
        assertThat(s.get(0).matchers())
                .containsExactly(
                        new PromQl.Matcher("application", "=", "booking-service"),
                        new PromQl.Matcher("status", "=~", "5.."),
                        new PromQl.Matcher("uri", "!=", "/actuator/prometheus"),
                        new PromQl.Matcher("method", "!~", "HEAD|OPTIONS"));
        assertThat(PromQl.selectors("a{l=\"quote \\\" and \\\\ back\"}")
                        .get(0)
                        .matchers()
                        .get(0)
                        .value())
                .isEqualTo("quote \" and \\ back");
        assertThat(PromQl.selectors("a{l=`raw \\d+`}").get(0).matchers().get(0).value())
                .isEqualTo("raw \\d+");
    }

    @Test
    void aNamelessSelectorTakesItsNameFromTheNameMatcher() {
        assertThat(selectors("{__name__=\"up\", job=\"waitroom\"}")).containsExactly("up{job=\"waitroom\"}");
        assertThat(selectors("count({__name__=~\"waitroom_.*\"})")).containsExactly("{__name__=~\"waitroom_.*\"}");
    }

    @Test
    void numbersDurationsOffsetsSubqueriesAndKeywordsAreNotSelectors() {
        assertThat(selectors("clamp_min(sum(rate(a[1m])), 1e-9) + 0x1F - .5 + Inf - NaN"))
                .containsExactly("a");
        assertThat(selectors("rate(a[5m] offset 1h30m) and bool b @ start() unless c offset -5m"))
                .containsExactly("a", "b", "c");
        assertThat(selectors("max_over_time(rate(a{x=\"y\"}[1m])[10m:1m]) # a comment with b_total\n + d"))
                .containsExactly("a{x=\"y\"}", "d");
        assertThat(selectors("label_replace(up, \"dst\", \"$1\", \"src\", \"(.*)\")"))
                .as("strings are not selectors")
                .containsExactly("up");
        assertThat(selectors("vector(1) + time() + scalar(x)")).containsExactly("x");
    }

    @Test
    void grafanaVariablesBecomeWhatTheDefaultViewSends() {
        String expr =
                "sum by (event) (rate(a{event=~\"$event\"}[$__rate_interval])) / sum(rate(b{e=~\"${event}\"}[${__interval}]))";
        String sent = PromQl.grafana(expr);
        assertThat(sent).isEqualTo("sum by (event) (rate(a{event=~\".*\"}[5m])) / sum(rate(b{e=~\".*\"}[5m]))");
        assertThat(selectors(sent)).containsExactly("a{event=~\".*\"}", "b{e=~\".*\"}");
    }

    @Test
    void malformedExpressionsAreRefused() {
        for (String bad : List.of(
                "sum(rate(a[1m])",
                "a{l=\"v\"",
                "a{l=\"v}",
                "a{l}",
                "a{l=v}",
                "a{l=\"v\" m=\"w\"}",
                "rate(a[1m)",
                "a[]",
                "a ; b",
                "sum(a))")) {
            assertThatThrownBy(() -> PromQl.selectors(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void matchersMatchAsPrometheusDoes() {
        PromQl.Selector s = PromQl.selectors("m{a=\"x\",b!=\"y\",c=~\"5..\",d!~\"z|w\",e=\"\"}")
                .get(0);
        assertThat(s.matches("m", Map.of("a", "x", "c", "503"))).isTrue();
        assertThat(s.matches("m", Map.of("a", "x", "c", "503", "b", "y"))).isFalse();
        assertThat(s.matches("m", Map.of("a", "x", "c", "5030")))
                .as("regex is anchored")
                .isFalse();
        assertThat(s.matches("m", Map.of("a", "x", "c", "503", "d", "w"))).isFalse();
        assertThat(s.matches("m", Map.of("a", "x", "c", "503", "e", "set")))
                .as("= \"\" means absent")
                .isFalse();
        assertThat(s.matches("n", Map.of("a", "x", "c", "503"))).isFalse();
    }

    @Test
    void theExpositionFormatIsReadWithTargetLabels() {
        String body = """
                # HELP waitroom_queue_waiting WAITING entries
                # TYPE waitroom_queue_waiting gauge
                waitroom_queue_waiting{application="queue-service",event="e-1"} 12.0
                http_server_requests_seconds_bucket{application="booking-service",le="0.005",uri="/a\\"b",} 3
                process_uptime_seconds 81.2 1712345678000
                odd{instance="own"} 1
                """;
        List<PrometheusText.Series> series =
                PrometheusText.parse(body, Map.of("job", "waitroom", "instance", "queue:9081"));
        assertThat(series).hasSize(4);
        assertThat(series.get(0).name()).isEqualTo("waitroom_queue_waiting");
        assertThat(series.get(0).labels())
                .containsEntry("event", "e-1")
                .containsEntry("job", "waitroom")
                .containsEntry("instance", "queue:9081");
        assertThat(series.get(0).value()).isEqualTo(12.0);
        assertThat(series.get(1).labels()).containsEntry("uri", "/a\"b").containsEntry("le", "0.005");
        assertThat(series.get(2).value()).as("a timestamp after the value").isEqualTo(81.2);
        assertThat(series.get(2).labels()).containsOnlyKeys("job", "instance");
        assertThat(series.get(3).labels())
                .containsEntry("instance", "queue:9081")
                .containsEntry("exported_instance", "own");
        assertThatThrownBy(() -> PrometheusText.parse("bad{a=\"1} 2", Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
