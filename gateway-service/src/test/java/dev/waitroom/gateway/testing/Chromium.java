package dev.waitroom.gateway.testing;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.ReducedMotion;
import dev.waitroom.testsupport.SyntheticClients;
import dev.waitroom.testsupport.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Debian's headless Chromium driven by Playwright, for every browser test: from PATH or {@code -Dwaitroom.chromium=...};
 * absent, the tests say so and are skipped ({@code assumeTrue(chromium != null, Chromium.SKIP_REASON)}).
 */
public final class Chromium implements AutoCloseable {

    public static final String SKIP_REASON = "SKIPPED browser test: no chromium executable found on PATH or at "
            + "-Dwaitroom.chromium (apt-get install -y chromium; ./waitroom test installs it where it can)";

    private final Playwright playwright;

    private final Browser browser;

    private Chromium(Path executable) {
        this.playwright = Playwright.create(
                new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        this.browser = playwright
                .chromium()
                .launch(new BrowserType.LaunchOptions()
                        .setExecutablePath(executable)
                        .setHeadless(true)
                        .setArgs(List.of(
                                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking")));
    }

    /**
     * Null, with the reason printed, where no chromium is installed; under {@code CI=true}, where nothing may skip, a
     * failure instead ({@link TestTools}).
     */
    public static Chromium launchOrNull() {
        Path executable = executable();
        if (executable == null) {
            if (TestTools.underCi()) {
                throw new AssertionError("under CI nothing may skip: " + SKIP_REASON);
            }
            System.out.println(SKIP_REASON);
            return null;
        }
        return new Chromium(executable);
    }

    /** A new browser context (its own cookies) whose requests come from {@code address} (X-Forwarded-For). */
    public Page newPage(String address) {
        return browser.newContext(new Browser.NewContextOptions()
                        .setReducedMotion(ReducedMotion.REDUCE)
                        .setExtraHTTPHeaders(Map.of("X-Forwarded-For", address)))
                .newPage();
    }

    /**
     * A new browser context (its own cookies) with reduced motion and the given options; unless the options name
     * headers, its requests come from an address of their own ({@link SyntheticClients}, as X-Forwarded-For), so the
     * gateway's per-address limits see one client per context, as with real visitors.
     */
    public BrowserContext newContext(Browser.NewContextOptions options) {
        if (options.extraHTTPHeaders == null) {
            options.setExtraHTTPHeaders(Map.of("X-Forwarded-For", SyntheticClients.next()));
        }
        return browser.newContext(options.setReducedMotion(ReducedMotion.REDUCE));
    }

    public String version() {
        return browser.version();
    }

    private static Path executable() {
        String configured = System.getProperty("waitroom.chromium");
        if (configured != null) {
            Path executable = Path.of(configured);
            return Files.isExecutable(executable) ? executable : null;
        }
        return TestTools.find("chromium").orElse(null);
    }

    @Override
    public void close() {
        browser.close();
        playwright.close();
    }
}
