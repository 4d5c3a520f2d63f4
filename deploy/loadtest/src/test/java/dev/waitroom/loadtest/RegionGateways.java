package dev.waitroom.loadtest;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The regions' gateways a rehearsal spreads its visitors over (docs/operating/regions.md): visitor n goes to region
 * {@code n mod N} and keeps to it. One region (the default) is the stack's one gateway, {@code baseUrl}.
 *
 * <p>{@code -Dregions=N} ({@code ./waitroom loadtest --regions N}) finds the gateways in the launcher's process list
 * ({@code <dataDir>/stack.txt}, written by {@code ./waitroom run --regions N}), or else on the launcher's default
 * layout (region k's gateway on the first one's port + 100 (k - 1)); {@code -DregionUrls=r1=http://...,r2=http://...}
 * names them outright.
 */
record RegionGateways(List<String> names, List<String> urls) {

    /** The launcher's distance between two regions' service ports (StackConfig.REGION_PORT_STRIDE). */
    static final int PORT_STRIDE = 100;

    RegionGateways {
        if (names.isEmpty() || names.size() != urls.size()) {
            throw new IllegalArgumentException("one gateway URL per region: " + names + " " + urls);
        }
        names = List.copyOf(names);
        urls = List.copyOf(urls);
        urls.forEach(LoadParameters::requireLoopback);
    }

    static RegionGateways fromSystemProperties(String baseUrl) {
        String explicit = System.getProperty("regionUrls", "").strip();
        if (!explicit.isEmpty()) {
            List<String> names = new ArrayList<>();
            List<String> urls = new ArrayList<>();
            for (String pair : explicit.split(",")) {
                String[] nameUrl = pair.strip().split("=", 2);
                if (nameUrl.length != 2) {
                    throw new IllegalArgumentException("-DregionUrls is name=url,name=url, not " + explicit);
                }
                names.add(nameUrl[0]);
                urls.add(nameUrl[1]);
            }
            return new RegionGateways(names, urls);
        }
        int count = Integer.parseInt(System.getProperty("regions", "1").strip());
        if (count < 1) {
            throw new IllegalArgumentException("-Dregions must be 1 or more");
        }
        if (count == 1) {
            return new RegionGateways(List.of("r1"), List.of(baseUrl));
        }
        Path dataDir = Path.of(System.getProperty("dataDir", "../../.waitroom"));
        RegionGateways listed = fromProcessList(dataDir.resolve("stack.txt"));
        if (listed != null) {
            if (listed.names().size() != count) {
                throw new IllegalArgumentException("-Dregions=" + count + " but the running stack has "
                        + listed.names().size() + " regions (" + dataDir.resolve("stack.txt") + ")");
            }
            return listed;
        }
        return layout(baseUrl, count);
    }

    /** Region k on the launcher's default layout: the first gateway's port + 100 (k - 1). */
    static RegionGateways layout(String baseUrl, int count) {
        URI first = URI.create(baseUrl);
        List<String> names = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            names.add("r" + k);
            urls.add(first.getScheme() + "://" + first.getHost() + ":" + (first.getPort() + PORT_STRIDE * (k - 1)));
        }
        return new RegionGateways(names, urls);
    }

    /**
     * The gateways of a running multi-region stack from its process list, lines {@code service <process> <region>
     * <pid> <port> <management port>}; null without the file or without regions in it.
     */
    static RegionGateways fromProcessList(Path stackFile) {
        if (!Files.exists(stackFile)) {
            return null;
        }
        List<String> names = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(stackFile)) {
                String[] f = line.strip().split("\\s+");
                if (f.length == 6
                        && f[0].equals("service")
                        && f[1].replaceFirst("^[^.]*\\.", "").equals("gateway-service")
                        && !f[2].equals("-")) {
                    names.add(f[2]);
                    urls.add("http://127.0.0.1:" + f[4]);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + stackFile + ": " + e.getMessage(), e);
        }
        return names.isEmpty() ? null : new RegionGateways(names, urls);
    }

    boolean several() {
        return names.size() > 1;
    }

    /** The region visitor {@code n} belongs to. */
    int of(long n) {
        return (int) Math.floorMod(n, (long) names.size());
    }
}
