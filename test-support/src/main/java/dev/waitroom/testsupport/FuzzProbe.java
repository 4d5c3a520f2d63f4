package dev.waitroom.testsupport;

import dev.waitroom.testsupport.MvcRoutes.Route;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * One malformed request of a fuzz test, and what its answer must be: below 500, a 4xx a problem with a type (a path
 * fault's own rules when the case spoils a path variable), and refused outright when {@code mustRefuse}.
 *
 * @param fuzzer sends the case and judges its answer
 * @param route the route the request goes to
 * @param uri the request's address, path variables filled in
 * @param c the malformed case
 * @param mustRefuse whether any answer below 400 is a fault
 * @param inPath whether the case spoils a path variable rather than the body
 * @param credentials the headers (name, value, ...) that get the request past authentication to the body
 * @param answered the count of answers by status, which a first sending adds to
 */
public record FuzzProbe(
        BodyFuzzer fuzzer,
        Route route,
        URI uri,
        BodyFuzzer.Case c,
        boolean mustRefuse,
        boolean inPath,
        String[] credentials,
        Map<Integer, Integer> answered)
        implements UnchangedState.Request {

    @Override
    public String name() {
        return this.route.key() + " " + this.c;
    }

    @Override
    public void send(boolean again, List<String> faults) {
        BodyFuzzer.Answer answer = this.fuzzer.send(this.route.method(), this.uri, this.c, this.credentials);
        if (!again) {
            this.answered.merge(answer.status(), 1, Integer::sum);
        }
        String what = name() + ": ";
        (this.inPath ? this.fuzzer.pathFault(answer) : this.fuzzer.fault(answer))
                .ifPresent(fault -> faults.add(what + fault));
        if (this.mustRefuse && answer.status() < 400) {
            faults.add(what + "accepted with " + answer.status() + " " + MvcRoutes.abbreviated(answer.body()));
        }
    }
}
