package dev.waitroom.gateway.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link Chromium} for a browser test class: launched before its first test, closed after its last, and every test
 * skipped, with the reason, where none is installed (under CI a failure instead). Registered as a static field, {@code
 * @RegisterExtension static final BrowserTestChromium chromium = new BrowserTestChromium();}, whose pages and contexts
 * the tests then open.
 */
public final class BrowserTestChromium implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private Chromium chromium;

    @Override
    public void beforeAll(ExtensionContext context) {
        chromium = Chromium.launchOrNull();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        assumeTrue(chromium != null, Chromium.SKIP_REASON);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (chromium != null) {
            chromium.close();
            chromium = null;
        }
    }

    /** See {@link Chromium#newPage}. */
    public Page newPage(String address) {
        return chromium.newPage(address);
    }

    /** See {@link Chromium#newContext}. */
    public BrowserContext newContext(Browser.NewContextOptions options) {
        return chromium.newContext(options);
    }

    public String version() {
        return chromium.version();
    }
}
