package dev.waitroom.coordinator.lanes;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The candidates of one tick's offers, split among the event's lanes by their shares ({@link LaneSplit}): the front
 * of each lane, in that lane's policy order, as many of each as the split gives it. An event without lanes asks the
 * queue once, exactly as before lanes. The ceiling and the tick's total stay the ticker's: this only decides whose
 * turn each of the {@code n} offers is.
 */
@Component
public class LaneCandidates {

    private final Lanes lanes;

    private final QueueDirectory queue;

    private final Map<EventId, LaneSplit> splits = new ConcurrentHashMap<>();

    LaneCandidates(Lanes lanes, QueueDirectory queue) {
        this.lanes = lanes;
        this.queue = queue;
    }

    /** Up to {@code n} candidates of an open event, lane by lane in declared order, general last. */
    public List<Candidate> candidates(Event event, int n) {
        EventId id = event.id();
        LaneSet set = this.lanes.frozen(id);
        if (set.isEmpty()) {
            return this.queue.candidates(id, n);
        }
        List<Lane> all = set.all();
        double[] shares = new double[all.size()];
        int[] available = new int[all.size()];
        List<List<Candidate>> fronts = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            Lane lane = all.get(i);
            List<Candidate> front = lane.name().isGeneral()
                    ? this.queue.candidates(id, n)
                    : this.queue.candidates(id, lane.name().value(), n);
            fronts.add(front);
            shares[i] = lane.share();
            available[i] = front.size();
        }
        int[] taken =
                this.splits.computeIfAbsent(id, e -> new LaneSplit(all.size())).split(n, shares, available);
        List<Candidate> out = new ArrayList<>(n);
        for (int i = 0; i < all.size(); i++) {
            out.addAll(fronts.get(i).subList(0, taken[i]));
        }
        return out;
    }
}
