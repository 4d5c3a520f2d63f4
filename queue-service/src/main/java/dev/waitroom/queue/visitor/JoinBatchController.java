package dev.waitroom.queue.visitor;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.contract.queue.JoinResults;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.join.BatchJoin;
import dev.waitroom.queue.join.JoinStore;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.metrics.QueueMetrics;
import dev.waitroom.queue.web.RetryLaterException;
import dev.waitroom.web.ProblemException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.ObjectMapper;

/**
 * The gateway's batched joins (docs/design/architecture.md#batched-joins): the joins it collected for an event within a few
 * milliseconds, in arrival order, made by one Lua call ({@link JoinStore#joinAll}) in that order. Each join gets the
 * answer it would have had alone ({@link VisitorQueueController#join}): its status code, its body (the visitor's
 * status, or its own problem: a malformed body, a missing sign-in, a closed or throttled event), its ticket and bound
 * visitor. A batch that is itself malformed is 400, one of more than {@value JoinBatch#MAX_JOINS} joins 413; a store
 * that fails fails the batch as it fails a single join (503, QueueStoreProblems), and the gateway gives every join that
 * answer. Joins are idempotent per identity, so a batch the gateway retries, or a join retried after a failed batch,
 * finds the entries already made.
 */
@RestController
@Tag(name = "joins", description = "Joins a gateway collected, in arrival order (internal, gateway)")
class JoinBatchController {

    private final JoinStore joins;
    private final VisitorJoins visits;
    private final QueueProperties properties;
    private final QueueMetrics metrics;
    private final ObjectMapper json;

    JoinBatchController(
            JoinStore joins, VisitorJoins visits, QueueProperties properties, QueueMetrics metrics, ObjectMapper json) {
        this.joins = joins;
        this.visits = visits;
        this.properties = properties;
        this.metrics = metrics;
        this.json = json;
    }

    @PostMapping(QueuePaths.JOINS)
    @Operation(summary = "Joins in arrival order, one script call; one result per join, in order")
    JoinResults join(@PathVariable("eventId") EventId event, @RequestBody(required = false) JoinBatch batch) {
        List<JoinBatch.Join> given = validated(batch);
        String instance = "/events/" + event.value() + "/queue";
        JoinResult[] results = new JoinResult[given.size()];
        List<Visitor> toJoin = new ArrayList<>(given.size());
        List<Integer> at = new ArrayList<>(given.size());
        for (int i = 0; i < given.size(); i++) {
            JoinBatch.Join one = given.get(i);
            try {
                Visitor who = Visitor.fromHeaders(one.visitor(), one.account());
                Optional<ResponseEntity<QueueStatus>> early =
                        visits.beforeJoin(event, who, one.accountProblem(), one.body());
                if (early.isPresent()) {
                    results[i] = result(early.get());
                } else {
                    toJoin.add(who);
                    at.add(i);
                }
            } catch (ProblemException refused) {
                results[i] = problem(refused.problem(), refused.getMessage(), refused.properties(), instance, null);
            } catch (MalformedValueException malformed) {
                results[i] = problem(malformed.problem(), malformed.getMessage(), Map.of(), instance, null);
            }
        }
        if (!toJoin.isEmpty()) {
            List<BatchJoin> made = joins.joinAll(event, toJoin, properties.livenessInterval());
            for (int j = 0; j < made.size(); j++) {
                BatchJoin m = made.get(j);
                results[at.get(j)] = m.outcome() != null
                        ? result(visits.joined(event, m.outcome()))
                        : refused(event, m.refused(), instance);
            }
        }
        return new JoinResults(Arrays.asList(results));
    }

    private JoinResult refused(EventId event, RuntimeException failure, String instance) {
        if (!(failure instanceof ProblemException refused)) {
            throw failure;
        }
        Long retryAfter = null;
        if (refused instanceof RetryLaterException later) {
            metrics.joinThrottled(event);
            retryAfter = later.retryAfterSeconds();
        }
        return problem(refused.problem(), refused.getMessage(), refused.properties(), instance, retryAfter);
    }

    private JoinResult result(ResponseEntity<QueueStatus> answer) {
        return new JoinResult(
                answer.getStatusCode().value(),
                answer.getHeaders().getFirst(Headers.TICKET),
                answer.getHeaders().getFirst(Headers.VISITOR),
                null,
                json.writeValueAsString(answer.getBody()));
    }

    /** The problem document a single join would have been answered with (web kit ProblemResponses' members). */
    private JoinResult problem(
            ProblemType type, String detail, Map<String, Object> extra, String instance, Long retryAfter) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("type", type.type().toString());
        doc.put("title", type.title());
        doc.put("status", type.status());
        doc.put("detail", detail);
        doc.put("instance", instance);
        doc.putAll(extra);
        return new JoinResult(type.status(), null, null, retryAfter, json.writeValueAsString(doc));
    }

    private static List<JoinBatch.Join> validated(JoinBatch batch) {
        if (batch == null || batch.joins() == null || batch.joins().isEmpty()) {
            throw new MalformedValueException(
                    "a body {\"joins\":[{\"visitor\":...}, ...]} with at least one join is required");
        }
        if (batch.joins().size() > JoinBatch.MAX_JOINS) {
            throw new ProblemException(
                    ProblemType.BODY_TOO_LARGE, "At most " + JoinBatch.MAX_JOINS + " joins per batch.");
        }
        for (JoinBatch.Join one : batch.joins()) {
            if (one == null) {
                throw new MalformedValueException("each join is an object {\"visitor\":...}");
            }
            if (one.body() != null && one.body().length() > JoinBatch.MAX_BODY_CHARS) {
                throw new MalformedValueException(
                        "a join's body in a batch is at most " + JoinBatch.MAX_BODY_CHARS + " characters");
            }
        }
        return batch.joins();
    }
}
