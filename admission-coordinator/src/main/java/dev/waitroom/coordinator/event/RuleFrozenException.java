package dev.waitroom.coordinator.event;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * 409 {@code rule-frozen}: a change of a published sale rule. The {@code rule} member names the first rule the change
 * touches (the detail names all of them), so a client can tell which field to drop.
 */
public class RuleFrozenException extends ProblemException {

    private static final long serialVersionUID = 1L;

    RuleFrozenException(List<SaleRule> rules, String since) {
        super(
                ProblemType.RULE_FROZEN,
                rules.stream().map(SaleRule::field).collect(Collectors.joining(", "))
                        + (rules.size() == 1 ? " is" : " are")
                        + " frozen " + since + "; nothing of this change was applied.",
                Map.of("rule", rules.get(0).field()));
    }

    /** A rule kept beside the event's configuration ({@code lanes}), named as the ops API names it. */
    RuleFrozenException(String rule, String since) {
        super(
                ProblemType.RULE_FROZEN,
                rule + " is frozen " + since + "; nothing of this change was applied.",
                Map.of("rule", rule));
    }
}
