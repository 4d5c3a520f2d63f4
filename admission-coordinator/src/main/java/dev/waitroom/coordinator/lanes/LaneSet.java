package dev.waitroom.coordinator.lanes;

import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The lanes an event declares, in their declared order, and the implicit {@link LaneName#GENERAL} lane, which takes
 * the share of the rate they leave (docs/operating/lanes-and-access-codes.md). Validates itself: names of the
 * {@link LaneName} form, unique, none {@code general}; every share above 0 and their sum at most 1.
 */
public record LaneSet(List<Lane> declared) {

    /** The most lanes an event may declare; the ticker asks the queue for each lane's front every tick. */
    public static final int MAX_LANES = 8;

    /** Tolerance of the sum of shares, so 0.1 + 0.2 + 0.7 is accepted although it is 1.0000000000000002. */
    private static final double EPSILON = 1e-9;

    public static final LaneSet NONE = new LaneSet(List.of());

    public LaneSet {
        declared = List.copyOf(declared);
        if (declared.size() > MAX_LANES) {
            throw invalid("at most " + MAX_LANES + " lanes besides general");
        }
        Set<LaneName> seen = new HashSet<>();
        double sum = 0;
        for (Lane lane : declared) {
            if (lane.name().isGeneral()) {
                throw invalid("'general' is the implicit lane: it takes the share the declared lanes leave");
            }
            if (!seen.add(lane.name())) {
                throw invalid("lane '" + lane.name() + "' is declared twice");
            }
            if (!(lane.share() > 0) || lane.share() > 1) {
                throw invalid("the share of lane '" + lane.name() + "' must be above 0 and at most 1");
            }
            sum += lane.share();
        }
        if (sum > 1 + EPSILON) {
            throw invalid("the shares of the lanes add up to " + sum + ", more than 1");
        }
    }

    /** From the ops API's {@code [{"name","share"}]}; a missing name or share is refused as a lane problem. */
    public static LaneSet of(List<LaneBody> lanes) {
        if (lanes == null) {
            return NONE;
        }
        List<Lane> out = new ArrayList<>();
        for (LaneBody body : lanes) {
            if (body == null || body.name() == null || body.share() == null) {
                throw invalid("each lane is {\"name\", \"share\"}");
            }
            out.add(new Lane(LaneName.of(body.name()), body.share()));
        }
        return new LaneSet(out);
    }

    /** One lane as the ops API sends it. */
    public record LaneBody(String name, Double share) {}

    public boolean isEmpty() {
        return declared.isEmpty();
    }

    /** The general lane's share: what the declared lanes leave (may be 0). */
    public double generalShare() {
        return Math.max(0, 1 - declared.stream().mapToDouble(Lane::share).sum());
    }

    /** Every lane with its share, general last. */
    public List<Lane> all() {
        List<Lane> all = new ArrayList<>(declared);
        all.add(new Lane(LaneName.GENERAL, generalShare()));
        return all;
    }

    /** Whether {@code name} is a lane of this event (the general lane always is). */
    public boolean has(LaneName name) {
        return name.isGeneral() || declared.stream().anyMatch(l -> l.name().equals(name));
    }

    private static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.INVALID_LANES, message);
    }
}
