package dev.waitroom.testsupport;

import dev.waitroom.testsupport.MvcRoutes.Route;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The driving loop of a service's fuzz test, once for every service (docs/design/security/input.md): every route read from
 * the service's request mappings gets {@link BodyFuzzer}'s whole-body and per-field cases (on a route that reads a
 * body) and its malformed path variables, each answer judged by {@link FuzzProbe}, and every request that must be
 * refused sent between two fingerprints of the stores ({@link UnchangedState}), a route's requests as one batch. The
 * service says what it alone knows: its valid bodies, the values of its path variables, the credentials a request
 * needs to reach its body, and which cases its contract lets a route accept.
 */
public final class RouteFuzz {

    private static final Pattern VARIABLE = Pattern.compile("\\{([^}/]+)}");

    /** The headers of a request to {@code path}, as a service gives them. */
    @FunctionalInterface
    public interface Credentials {
        String[] of(Route route, String path, BodyFuzzer.Case c);
    }

    /**
     * What a service's fuzz test knows of its own routes.
     *
     * @param name for the summary line
     * @param baseUrl where the service listens, e.g. {@code http://127.0.0.1:8081}
     * @param samples a valid body of each route that reads one, by route key, which the cases spoil a part at a
     *     time; a route without one gets the whole-body cases only
     * @param pathValues the value a path variable has in a request that spoils another part
     * @param credentials the headers that get a request past authentication to its body
     * @param accepts the whole-body cases a route's contract accepts (a 2xx is then no fault)
     * @param changes of those, the ones that may change the stores (sent outside the fingerprints)
     */
    public record Routes(
            String name,
            String baseUrl,
            Map<String, Map<String, Object>> samples,
            BiFunction<Route, String, String> pathValues,
            Credentials credentials,
            BiPredicate<Route, BodyFuzzer.Case> accepts,
            BiPredicate<Route, BodyFuzzer.Case> changes) {

        Map<String, Object> sample(Route route) {
            return this.samples.get(route.key());
        }

        String pathValue(Route route, String variable) {
            return this.pathValues.apply(route, variable);
        }

        String[] headers(Route route, String path, BodyFuzzer.Case c) {
            return this.credentials.of(route, path, c);
        }

        boolean mayAccept(Route route, BodyFuzzer.Case c) {
            return this.accepts.test(route, c);
        }

        boolean mayChange(Route route, BodyFuzzer.Case c) {
            return this.changes.test(route, c);
        }
    }

    private RouteFuzz() {}

    /** Sends every case to every route and prints what was answered; the faults found, empty when none. */
    public static List<String> faults(
            BodyFuzzer fuzzer, List<Route> routes, Routes service, UnchangedState<?> unchanged) {
        List<String> faults = new ArrayList<>();
        Map<Integer, Integer> answered = new TreeMap<>();
        int sent = 0;
        for (Route route : routes) {
            Map<String, Object> sample = route.readsBody() ? service.sample(route) : null;
            if (route.readsBody() && sample == null) {
                System.out.println("FUZZ no sample body for " + route.key() + ": whole-body faults only");
            }
            List<FuzzProbe> guarded = new ArrayList<>();
            for (BodyFuzzer.Case c : fuzzer.cases(route.key(), sample)) {
                if (c.absent() && route.readsBody() && !route.bodyRequired()) {
                    continue; // no body where a body is optional is a valid request
                }
                if (!route.readsBody()
                        && !route.method().equals("GET")
                        && !c.name().equals(BodyFuzzer.OVER_THE_LIMIT)) {
                    continue; // a body nobody reads: only its size matters, and the call itself may change state
                }
                sent++;
                boolean mustRefuse = route.readsBody() && !service.mayAccept(route, c);
                FuzzProbe probe = probe(fuzzer, route, service, Map.of(), c, mustRefuse, false, answered);
                if (route.readsBody() && !service.mayChange(route, c)) {
                    guarded.add(probe);
                } else {
                    probe.send(false, faults);
                }
            }
            BodyFuzzer.Case valid = new BodyFuzzer.Case(
                    "a valid body",
                    sample == null ? null : "application/json",
                    sample == null ? new byte[0] : BodyFuzzer.json(sample),
                    sample == null);
            for (String variable : route.variables()) {
                for (String segment : fuzzer.pathSegments(route.key())) {
                    sent++;
                    BodyFuzzer.Case c = new BodyFuzzer.Case(
                            "{" + variable + "} = " + MvcRoutes.abbreviated(segment),
                            valid.contentType(),
                            valid.body(),
                            valid.absent());
                    guarded.add(probe(fuzzer, route, service, Map.of(variable, segment), c, true, true, answered));
                }
            }
            unchanged.check(route.key(), guarded, faults);
        }
        System.out.println("FUZZ " + service.name() + ": " + sent + " requests to " + routes.size()
                + " routes, answered " + answered);
        return faults;
    }

    private static FuzzProbe probe(
            BodyFuzzer fuzzer,
            Route route,
            Routes service,
            Map<String, String> replaced,
            BodyFuzzer.Case c,
            boolean mustRefuse,
            boolean inPath,
            Map<Integer, Integer> answered) {
        String path = path(route, service, replaced);
        return new FuzzProbe(
                fuzzer,
                route,
                URI.create(service.baseUrl() + path),
                c,
                mustRefuse,
                inPath,
                service.headers(route, path, c),
                answered);
    }

    /** The route's path with each variable the spoilt value given, or the service's own. */
    static String path(Route route, Routes service, Map<String, String> replaced) {
        Matcher m = VARIABLE.matcher(route.pattern());
        StringBuilder path = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = replaced.containsKey(name) ? replaced.get(name) : service.pathValue(route, name);
            m.appendReplacement(path, Matcher.quoteReplacement(value));
        }
        m.appendTail(path);
        return path.toString();
    }
}
