package dev.waitroom.queue.visitor;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorKeys;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import dev.waitroom.tokens.VisitorId;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * The visitor id an account's entry is bound to, in an ACCOUNT-scoped event (docs/integration/accounts.md, "Two browsers, one
 * place"). An offer is made to that id and claimed under it, so it must not move while the entry lives: a signed-in join
 * from another browser of the account answers the entry as it is instead of running join.lua (which would rebind it to
 * the newcomer, and a rebind after the offer would leave the offer claimable by nobody), and the id is answered in
 * {@code X-Waitroom-Visitor} to the gateway, which claims under it for any browser of the same account.
 */
@Component
class AccountEntries {

    /** States in which the entry is a place the account holds (a new join must not make or move anything). */
    private static final Set<EntryState> LIVE = EnumSet.of(EntryState.WAITING, EntryState.OFFERED, EntryState.ACTIVE);

    /** The entry an account holds: its state and the visitor id it is bound to. */
    record Bound(EntryState state, VisitorId visitor) {

        boolean live() {
            return LIVE.contains(state);
        }
    }

    private final QueueScripts scripts;

    private final VisitorKeys keys;

    private final LuaScript read;

    AccountEntries(QueueScripts scripts, VisitorKeys keys) {
        this.scripts = scripts;
        this.keys = keys;
        this.read = scripts.load("account_entry", LuaScript.Kind.READ);
    }

    /** The account's entry in {@code event}; empty without an account or an entry. */
    Optional<Bound> of(EventId event, Visitor who) {
        if (who.account() == null) {
            return Optional.empty();
        }
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(
                read, k, keys.of(k, who, false), k.prefix(), who.visitorId().value(), who.accountIdentity());
        if (r.isEmpty() || !r.get(0).equals("OK") || !VisitorId.isValid(r.get(3))) {
            return Optional.empty();
        }
        return Optional.of(new Bound(EntryState.ofLetter(r.get(2)), new VisitorId(r.get(3))));
    }
}
