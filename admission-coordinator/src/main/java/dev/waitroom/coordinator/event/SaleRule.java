package dev.waitroom.coordinator.event;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The rules an event publishes with its draw commitment (the page renders them, issue 17): fixed once the commitment
 * is published or the sale opened (docs/design/sale-rules/frozen-rules-and-categories.md). Each is named as the ops API and
 * the pushed state name it.
 */
public enum SaleRule {
    PRESALE_ORDERING("presaleOrdering", EventConfig::presaleOrdering),
    EXPIRED_OFFER_POLICY("expiredOfferPolicy", EventConfig::expiredOfferPolicy),
    IDENTITY_SCOPE("identityScope", EventConfig::identityScope),
    AFTER_PURCHASE("afterPurchase", EventConfig::afterPurchase);

    private final String field;

    private final Function<EventConfig, Object> value;

    SaleRule(String field, Function<EventConfig, Object> value) {
        this.field = field;
        this.value = value;
    }

    /** The field's name in the ops API and in the {@code rule} member of a {@code rule-frozen} problem. */
    public String field() {
        return this.field;
    }

    public Object of(EventConfig config) {
        return this.value.apply(config);
    }

    /** The rules whose value differs between the two configurations, in this enum's order. */
    public static List<SaleRule> changed(EventConfig from, EventConfig to) {
        List<SaleRule> changed = new ArrayList<>();
        for (SaleRule rule : values()) {
            if (!Objects.equals(rule.of(from), rule.of(to))) {
                changed.add(rule);
            }
        }
        return changed;
    }
}
