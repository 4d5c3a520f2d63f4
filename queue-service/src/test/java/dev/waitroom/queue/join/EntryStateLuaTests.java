package dev.waitroom.queue.join;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The scripts name entry states; only EntryState knows their stored letters. */
class EntryStateLuaTests {

    /** A quoted upper-case letter, alone or starting a record ('W' or 'W|'). */
    private static final Pattern SPELLED_STATE = Pattern.compile("'[A-Z]\\|?'");

    @Test
    void theStatesAndTheirTransitionsAreGeneratedFromTheEnum() {
        assertThat(EntryStateLua.STATES)
                .isEqualTo("local WAITING, OFFERED, ACTIVE, COMPLETED, LEFT, EXPIRED = 'W', 'O', 'A', 'C', 'L', 'E'\n");
        assertThat(EntryStateLua.COUNTERS).contains("['W'] = 'waiting'").contains("['E'] = 'expired'");
        assertThat(EntryStateLua.NEXT)
                .contains("['W'] = {['O'] = true, ['L'] = true}")
                .contains("['C'] = {}");
    }

    @Test
    void noScriptSpellsAStoredLetter() throws IOException {
        List<String> spelled = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/resources/scripts"))) {
            for (Path script :
                    files.filter(f -> f.toString().endsWith(".lua")).sorted().toList()) {
                for (String line : Files.readAllLines(script)) {
                    Matcher m = SPELLED_STATE.matcher(line.replaceAll("--.*$", ""));
                    while (m.find()) {
                        spelled.add(script.getFileName() + ": " + m.group());
                    }
                }
            }
        }
        assertThat(spelled).isEmpty();
    }
}
