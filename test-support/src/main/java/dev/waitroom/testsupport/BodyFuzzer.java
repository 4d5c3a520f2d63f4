package dev.waitroom.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Seeded malformed requests for a service's fuzz tests: from a sample of a route's valid JSON body (a template), every
 * way a body can be wrong that a server must answer with a 4xx problem and nothing stored. Whole bodies: empty, JSON
 * {@code null}, truncated, not JSON, the wrong root, 1000 levels of nesting, invalid UTF-8, raw control bytes, the
 * wrong content type, over the body limit. Each field (nested ones too): wrong JSON types, huge numbers, NUL and other
 * control characters, unpaired surrogates, bidi marks, very long strings, deep nesting. Path variables: encoded NUL,
 * control characters, invalid UTF-8, over-long segments.
 *
 * <p>The seed comes from {@code -Dfuzz.seed=<n>} or is drawn, and is printed: a failure names it, and the same seed
 * produces the same requests again. Each route draws from its own generator (seed and route), so adding a route changes
 * no other route's requests.
 *
 * <pre>
 * BodyFuzzer fuzzer = BodyFuzzer.seeded("coordinator", 16 * 1024);
 * for (BodyFuzzer.Case c : fuzzer.cases("POST /admin/events", Map.of("eventId", "e-1", "name", "Concert"))) {
 *     BodyFuzzer.Answer answer = fuzzer.send("POST", uri, c, "Authorization", "Bearer ...");
 *     fuzzer.fault(answer).ifPresent(fault -> failures.add(c + ": " + fault));
 * }
 * </pre>
 */
public final class BodyFuzzer {

    /** The system property that repeats a run: {@code -Dfuzz.seed=<n>}. */
    public static final String SEED_PROPERTY = "fuzz.seed";

    /** How deep the nesting cases go: past every parser's default limit (Jackson's is 500 or 1000). */
    public static final int NESTING = 1000;

    /**
     * The name of the case over the body limit: the one a route that reads no body still has to refuse (413, before
     * its handler runs).
     */
    public static final String OVER_THE_LIMIT = "over the body limit";

    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"[^\"]+\"");

    private static final String JSON = "application/json";

    private final long seed;
    private final int maxBodyBytes;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private BodyFuzzer(long seed, int maxBodyBytes) {
        this.seed = seed;
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * A fuzzer for {@code service}, whose largest accepted body is {@code maxBodyBytes} (its long strings fit inside it,
     * its over-limit body does not); the seed from {@value #SEED_PROPERTY} or a new one, printed either way.
     */
    public static BodyFuzzer seeded(String service, int maxBodyBytes) {
        String given = System.getProperty(SEED_PROPERTY);
        long seed = given == null || given.isBlank() ? new Random().nextLong() : Long.parseLong(given.strip());
        System.out.println("FUZZ " + service + " seed=" + seed + " (repeat with -D" + SEED_PROPERTY + "=" + seed + ")");
        return new BodyFuzzer(seed, maxBodyBytes);
    }

    public long seed() {
        return seed;
    }

    /** A JSON value written as these bytes exactly (for values no {@link String} can carry, like invalid UTF-8). */
    public record Raw(byte[] bytes) {

        public static Raw of(String text) {
            return new Raw(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * One malformed request body.
     *
     * @param name        what is wrong, with the field it is wrong in (never the whole body: some are megabytes)
     * @param contentType the {@code Content-Type} to send, null for none
     * @param absent      whether a server reads it as no body at all (empty, or JSON {@code null}): a route whose body
     *                    is optional may accept it
     */
    public record Case(String name, String contentType, byte[] body, boolean absent) {

        @Override
        public String toString() {
            return name + " (" + body.length + " bytes, " + (contentType == null ? "no content type" : contentType)
                    + ")";
        }
    }

    /** What the server answered. */
    public record Answer(int status, String contentType, String body) {}

    /**
     * Every malformed variant of {@code template} (the sample of a valid body: maps, lists, strings, numbers, booleans
     * and nulls), for the route named {@code route} (say {@code "POST /admin/events"}); drawn from the seed and the
     * route alone. A null template stands for a route that reads no body; it gets the whole-body cases.
     */
    public List<Case> cases(String route, Map<String, ?> template) {
        Random random = new Random(seed ^ ((long) route.hashCode() << 32 | (route.length() & 0xffffffffL)));
        Map<String, ?> sample = template == null ? Map.of("x", "y") : template;
        List<Case> cases = new ArrayList<>(wholeBody(random, sample));
        if (template != null) {
            for (List<Object> path : fieldPaths(sample, List.of())) {
                Object valid = at(sample, path);
                for (Hostile hostile : hostileValues(random, valid)) {
                    cases.add(new Case(
                            pathName(path) + ": " + hostile.name(),
                            JSON,
                            json(replaced(sample, path, 0, hostile.value())),
                            false));
                }
            }
        }
        return cases;
    }

    /**
     * Path segments a route must refuse in place of a path variable, already percent-encoded: NUL, line breaks and
     * other control characters, invalid UTF-8, bidi marks, one over-long segment, brackets and quotes.
     */
    public List<String> pathSegments(String route) {
        Random random = new Random(seed ^ route.hashCode() ^ 0x5bd1e995L);
        return List.of(
                "%00",
                "e-1%00",
                "%0a",
                "e%0d%0aSet-Cookie:x",
                "%1b%5b31m",
                "%7f",
                "%c2%85",
                "%ff",
                "%c3%28",
                "%ed%a0%80",
                "%c0%80",
                "%e2%80%ae",
                "e" + "x".repeat(200 + random.nextInt(1800)),
                "%22%27%3c%3e",
                "%20");
    }

    /** Sends {@code c} with {@code method} to {@code uri} and the header name/value pairs. */
    public Answer send(String method, URI uri, Case c, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(c.body()));
        if (c.contentType() != null) {
            request.header("Content-Type", c.contentType());
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(null),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + uri.getRawPath() + " with " + c, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * What is wrong with {@code answer} to a malformed request, or empty: a 5xx, a 4xx that is not
     * {@code application/problem+json}, a problem without a {@code type}.
     */
    public Optional<String> fault(Answer answer) {
        if (answer.status() >= 500) {
            return Optional.of("answered " + answer.status() + " " + abbreviated(answer.body()));
        }
        if (answer.status() >= 400) {
            if (answer.contentType() == null || !answer.contentType().startsWith("application/problem+json")) {
                return Optional.of("answered " + answer.status() + " as " + answer.contentType() + ", not a problem");
            }
            if (answer.body() == null || !PROBLEM_TYPE.matcher(answer.body()).find()) {
                return Optional.of("answered a problem without a type: " + abbreviated(answer.body()));
            }
        }
        return Optional.empty();
    }

    /**
     * {@link #fault(Answer)} for a request whose path carries one of {@link #pathSegments}: the servlet container
     * (Tomcat) refuses an encoded NUL or invalid UTF-8 in a path with a plain 400 page of its own before any
     * application code runs, so that answer is not a fault here (the gateway answers the same paths with its bad-path
     * problem before they could reach a service).
     */
    public Optional<String> pathFault(Answer answer) {
        if (answer.status() == 400
                && answer.contentType() != null
                && answer.contentType().startsWith("text/html")
                && answer.body() != null
                && answer.body().contains("HTTP Status 400")) {
            return Optional.empty();
        }
        return fault(answer);
    }

    /** The failure message for {@code faults}, naming the seed that repeats them. */
    public String report(List<String> faults) {
        return faults.size() + " malformed request(s) answered wrongly (repeat with -D" + SEED_PROPERTY + "=" + seed
                + "):\n  " + String.join("\n  ", faults);
    }

    /** {@code value} as JSON bytes: maps, lists, strings, numbers, booleans, null and {@link Raw}. */
    public static byte[] json(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, value);
        return out.toByteArray();
    }

    private List<Case> wholeBody(Random random, Map<String, ?> sample) {
        byte[] valid = json(sample);
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("empty body", JSON, new byte[0], true));
        cases.add(new Case("JSON null", JSON, ascii("null"), true));
        int cut = valid.length < 2 ? 1 : 1 + random.nextInt(valid.length - 1);
        cases.add(new Case("truncated at byte " + cut, JSON, slice(valid, cut), false));
        cases.add(new Case("unclosed object", JSON, ascii("{\"a\":"), false));
        cases.add(new Case("trailing comma", JSON, ascii("{\"a\":1,}"), false));
        cases.add(new Case("single quotes", JSON, ascii("{'a':'b'}"), false));
        cases.add(new Case("not JSON", JSON, ascii(pick(random, "hello", "<x/>", "a=b&c=d", "NaN", "--")), false));
        cases.add(new Case("array root", JSON, concat(ascii("["), valid, ascii("]")), false));
        cases.add(new Case(
                "scalar root", JSON, ascii(pick(random, "\"text\"", "42", "true", "-1e400", "\"\\u0000\"")), false));
        cases.add(new Case("object nested " + NESTING + " deep", JSON, nested("{\"a\":", "1", "}"), false));
        cases.add(new Case("array nested " + NESTING + " deep", JSON, nested("[", "1", "]"), false));
        cases.add(new Case("invalid UTF-8 in a value", JSON, withInvalidUtf8(random, sample), false));
        cases.add(new Case("raw NUL byte in a string", JSON, rawControlInString(random, sample, (byte) 0), false));
        cases.add(new Case(
                "raw control byte in a string",
                JSON,
                rawControlInString(random, sample, (byte) (1 + random.nextInt(31))),
                false));
        cases.add(new Case("no content type", null, valid, false));
        for (String type : List.of(
                "text/plain",
                "application/xml",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x",
                "application/json; charset=bogus-charset",
                "application/octet-stream")) {
            cases.add(new Case("content type " + type, type, valid, false));
        }
        int over = maxBodyBytes * 2 + random.nextInt(maxBodyBytes * 6);
        Map<String, Object> padded = new LinkedHashMap<>(sample);
        padded.put("padding", "p".repeat(over));
        cases.add(new Case(OVER_THE_LIMIT, JSON, json(padded), false));
        return cases;
    }

    private record Hostile(String name, Object value) {}

    private List<Hostile> hostileValues(Random random, Object valid) {
        List<Hostile> values = new ArrayList<>();
        values.add(new Hostile("array nested " + NESTING + " deep", new Raw(nested("[", "1", "]"))));
        values.add(new Hostile("object nested " + NESTING + " deep", new Raw(nested("{\"a\":", "1", "}"))));
        if (valid instanceof String text) {
            values.add(new Hostile("an array for a string", List.of(text)));
            values.add(new Hostile("an object for a string", Map.of("value", text)));
            values.add(new Hostile("NUL", insert(random, text, "\u0000")));
            values.add(new Hostile(
                    "C0 control", insert(random, text, String.valueOf((char) (1 + random.nextInt(31))))));
            values.add(new Hostile(
                    "DEL and C1 control", insert(random, text, pick(random, "\u007f", "\u0085", "\u009b"))));
            values.add(new Hostile(
                    "unpaired surrogate", insert(random, text, pick(random, "\ud800", "\udfff", "\udbff"))));
            values.add(new Hostile("bidi override", insert(random, text, pick(random, "\u202e", "\u2066", "\u202a"))));
            values.add(new Hostile("line separator", insert(random, text, pick(random, "\u2028", "\n", "\r\n"))));
            values.add(new Hostile("long string", longString(random, text)));
            values.add(new Hostile(
                    "invalid UTF-8", new Raw(withInvalidUtf8Inside(random, text.replaceAll("[^A-Za-z0-9]", "")))));
        } else if (valid instanceof Number) {
            values.add(new Hostile("a word for a number", "not-a-number"));
            values.add(new Hostile("an array for a number", List.of(valid)));
            values.add(new Hostile("an object for a number", Map.of("value", valid)));
            values.add(new Hostile("a boolean for a number", Boolean.TRUE));
            for (String huge :
                    List.of("1e400", "-1e400", "123456789012345678901234567890", "-123456789012345678901234567890")) {
                values.add(new Hostile("huge number " + huge, Raw.of(huge)));
            }
            values.add(new Hostile("number of 2000 digits", Raw.of("9".repeat(2000))));
            values.add(new Hostile("NaN", Raw.of(pick(random, "NaN", "Infinity", "-Infinity"))));
        } else if (valid instanceof Boolean) {
            values.add(new Hostile("a word for a boolean", "maybe"));
            values.add(new Hostile("an array for a boolean", List.of(valid)));
        } else if (valid instanceof List<?> list) {
            values.add(new Hostile("a string for an array", "text"));
            values.add(new Hostile("an object for an array", Map.of("value", list)));
            values.add(new Hostile("a number for an array", 42));
        } else if (valid instanceof Map<?, ?> map) {
            values.add(new Hostile("a string for an object", "text"));
            values.add(new Hostile("an array for an object", List.of(map)));
            values.add(new Hostile("a number for an object", 42));
        }
        return values;
    }

    /** Every path to a value in {@code value}: map keys and list indexes, the containers themselves included. */
    private static List<List<Object>> fieldPaths(Object value, List<Object> prefix) {
        List<List<Object>> paths = new ArrayList<>();
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                List<Object> path = append(prefix, e.getKey());
                paths.add(path);
                paths.addAll(fieldPaths(e.getValue(), path));
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                List<Object> path = append(prefix, i);
                paths.add(path);
                paths.addAll(fieldPaths(list.get(i), path));
            }
        }
        return paths;
    }

    private static List<Object> append(List<Object> prefix, Object step) {
        List<Object> path = new ArrayList<>(prefix);
        path.add(step);
        return path;
    }

    private static Object at(Object value, List<Object> path) {
        Object current = value;
        for (Object step : path) {
            current = current instanceof Map<?, ?> map ? map.get(step) : ((List<?>) current).get((Integer) step);
        }
        return current;
    }

    private static Object replaced(Object value, List<Object> path, int depth, Object replacement) {
        if (depth == path.size()) {
            return replacement;
        }
        Object step = path.get(depth);
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>(map);
            copy.put(step, replaced(map.get(step), path, depth + 1, replacement));
            return copy;
        }
        List<Object> copy = new ArrayList<>((List<?>) value);
        int index = (Integer) step;
        copy.set(index, replaced(copy.get(index), path, depth + 1, replacement));
        return copy;
    }

    private static String pathName(List<Object> path) {
        StringBuilder name = new StringBuilder();
        for (Object step : path) {
            if (step instanceof Integer i) {
                name.append('[').append(i).append(']');
            } else {
                name.append(name.isEmpty() ? "" : ".").append(step);
            }
        }
        return name.toString();
    }

    /**
     * {@code text} with {@code inserted} strictly inside it when it has two characters or more: parsers trim the ends of
     * some values (Jackson an enum name or an instant), so a control character there would test the parser alone.
     */
    private static String insert(Random random, String text, String inserted) {
        int at = text.length() < 2 ? text.length() : 1 + random.nextInt(text.length() - 1);
        if (at < text.length() && Character.isLowSurrogate(text.charAt(at))) {
            at--; // never between the halves of a pair
        }
        return text.substring(0, at) + inserted + text.substring(at);
    }

    /** Longer than any field allows (over 1000 characters), short enough that the body stays under the limit. */
    private String longString(Random random, String text) {
        int most = Math.max(1100, maxBodyBytes / 2);
        int length = 1100 + random.nextInt(Math.max(1, most - 1100));
        String unit = text.isEmpty() ? "x" : text;
        StringBuilder s = new StringBuilder(length);
        while (s.length() < length) {
            s.append(unit);
        }
        return s.substring(0, length);
    }

    /** {@code ascii} as a JSON string with invalid UTF-8 strictly inside it (see {@link #insert}). */
    private static byte[] withInvalidUtf8Inside(Random random, String ascii) {
        String text = ascii.length() < 2 ? "ab" : ascii;
        int at = 1 + random.nextInt(text.length() - 1);
        return concat(ascii("\"" + text.substring(0, at)), invalidUtf8(random), ascii(text.substring(at) + "\""));
    }

    private static byte[] invalidUtf8(Random random) {
        byte[][] sequences = {
            {(byte) 0xff}, // never in UTF-8
            {(byte) 0xc3, (byte) 0x28}, // a lead byte without its continuation
            {(byte) 0xc0, (byte) 0x80}, // an overlong NUL
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, // an encoded surrogate
            {(byte) 0xe2, (byte) 0x82}, // cut short
            {(byte) 0x80}, // a lone continuation byte
            {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80} // five bytes
        };
        return sequences[random.nextInt(sequences.length)];
    }

    /**
     * Invalid UTF-8 inside one of the sample's strings, or in place of its first value when it has none (a parser may
     * skip an unknown member without decoding it, so the bytes go where they are read).
     */
    private static byte[] withInvalidUtf8(Random random, Map<String, ?> sample) {
        List<List<Object>> paths = fieldPaths(sample, List.of());
        List<List<Object>> strings =
                paths.stream().filter(p -> at(sample, p) instanceof String).toList();
        if (paths.isEmpty()) {
            return concat(ascii("{\"k\":\""), invalidUtf8(random), ascii("\"}"));
        }
        List<Object> path = strings.isEmpty() ? paths.get(0) : strings.get(random.nextInt(strings.size()));
        return json(replaced(sample, path, 0, new Raw(withInvalidUtf8Inside(random, "ab"))));
    }

    private static byte[] rawControlInString(Random random, Map<String, ?> sample, byte control) {
        List<List<Object>> strings = fieldPaths(sample, List.of()).stream()
                .filter(p -> at(sample, p) instanceof String)
                .toList();
        if (!strings.isEmpty()) {
            List<Object> path = strings.get(random.nextInt(strings.size()));
            Raw value = new Raw(concat(ascii("\"x"), new byte[] {control}, ascii("y\"")));
            return json(replaced(sample, path, 0, value));
        }
        Map<Object, Object> copy = new LinkedHashMap<>(sample);
        copy.put(new Raw(concat(ascii("\"c"), new byte[] {control}, ascii("\""))), "v");
        return json(copy);
    }

    private static byte[] nested(String open, String inner, String close) {
        return ascii(open.repeat(NESTING) + inner + close.repeat(NESTING));
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] slice(byte[] bytes, int length) {
        byte[] part = new byte[length];
        System.arraycopy(bytes, 0, part, 0, length);
        return part;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String abbreviated(String body) {
        if (body == null) {
            return "";
        }
        return body.length() <= 300 ? body : body.substring(0, 300) + "...";
    }

    private static void write(ByteArrayOutputStream out, Object value) {
        if (value == null) {
            out.writeBytes(ascii("null"));
        } else if (value instanceof Raw raw) {
            out.writeBytes(raw.bytes());
        } else if (value instanceof String s) {
            writeString(out, s);
        } else if (value instanceof Number || value instanceof Boolean) {
            out.writeBytes(ascii(value.toString()));
        } else if (value instanceof Map<?, ?> map) {
            out.write('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.write(',');
                }
                first = false;
                write(out, e.getKey() instanceof Raw ? e.getKey() : String.valueOf(e.getKey()));
                out.write(':');
                write(out, e.getValue());
            }
            out.write('}');
        } else if (value instanceof List<?> list) {
            out.write('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                write(out, list.get(i));
            }
            out.write(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass());
        }
    }

    /** Escapes what JSON requires and every char that could not travel as UTF-8 or is invisible, as \\uXXXX. */
    private static void writeString(ByteArrayOutputStream out, String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20
                    || (c >= 0x7f && c <= 0x9f)
                    || Character.isSurrogate(c)
                    || c == '\u2028'
                    || c == '\u2029') {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        out.writeBytes(b.append('"').toString().getBytes(StandardCharsets.UTF_8));
    }
}
