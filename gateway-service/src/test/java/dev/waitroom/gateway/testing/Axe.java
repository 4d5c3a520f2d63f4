package dev.waitroom.gateway.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.deque.html.axecore.playwright.AxeBuilder;
import com.deque.html.axecore.results.Rule;
import com.microsoft.playwright.Page;
import java.util.List;

/** axe-core's accessibility rules on a page as it stands, for every browser test of the pages. */
public final class Axe {

    private Axe() {}

    /** No violation on the page; a failure names each violated rule, its help and the offending elements. */
    public static void assertClean(Page page) {
        List<Rule> violations = new AxeBuilder(page).analyze().getViolations();
        assertThat(violations)
                .as(() -> violations.stream()
                        .map(v -> v.getId() + ": " + v.getHelp() + " "
                                + v.getNodes().stream().map(n -> n.getHtml()).toList())
                        .toList()
                        .toString())
                .isEmpty();
    }
}
