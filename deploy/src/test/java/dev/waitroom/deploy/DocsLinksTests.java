package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Docs that do not drift (issue #32): every relative link of every Markdown file of the tree (the README, each
 * module's README, docs/, SECURITY.md, CHANGELOG.md) leads to a file that exists, and a link to a heading
 * ({@code file.md#anchor}) to a heading that file has, by GitHub's anchor rule (lower case, punctuation dropped,
 * spaces made {@code -}, a repeated heading numbered). A file moved, renamed or a heading reworded without its links
 * fails here rather than in a reader's browser. Links inside fenced code are examples, not links.
 */
class DocsLinksTests {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern FENCED = Pattern.compile("(?s)```.*?```");

    private static final Pattern HEADING = Pattern.compile("^#+\\s+(.*)$");

    private static final Pattern HTML_ANCHOR = Pattern.compile("<a (?:name|id)=\"([^\"]+)\"");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkLeadsToAFileAndAHeadingThatExist() throws IOException {
        List<Path> markdown;
        try (Stream<Path> files = Files.walk(TestStacks.ROOT)) {
            markdown = files.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !excluded(TestStacks.ROOT.relativize(p)))
                    .toList();
        }
        assertThat(markdown).as("the Markdown files of the tree").hasSizeGreaterThan(40);
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path file : markdown) {
            String text = FENCED.matcher(Files.readString(file)).replaceAll("");
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:: not this tree's
                }
                links++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? "" : target.substring(hash + 1);
                Path resolved =
                        path.isEmpty() ? file : file.getParent().resolve(path).normalize();
                String where = TestStacks.ROOT.relativize(file) + ": " + target;
                if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                } else if (!anchor.isEmpty()
                        && resolved.toString().endsWith(".md")
                        && !anchorsOf(resolved).contains(anchor)) {
                    broken.add(where + " (no such heading)");
                }
            }
        }
        assertThat(links).as("relative links read").isGreaterThan(200);
        assertThat(broken).as("broken links").isEmpty();
    }

    /** Build output, dependencies and VCS data are not the tree's docs. */
    private static boolean excluded(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private Set<String> anchorsOf(Path file) throws IOException {
        Set<String> known = anchors.get(file);
        if (known != null) {
            return known;
        }
        known = new HashSet<>();
        boolean inCode = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            }
            if (inCode) {
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String base = slug(heading.group(1));
                String anchor = base;
                for (int n = 1; known.contains(anchor); n++) {
                    anchor = base + "-" + n;
                }
                known.add(anchor);
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                known.add(html.group(1));
            }
        }
        anchors.put(file, known);
        return known;
    }

    /** GitHub's anchor of a heading: lower case, everything but letters, digits, {@code _}, {@code -} and spaces dropped. */
    static String slug(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                .replace(' ', '-');
    }
}
