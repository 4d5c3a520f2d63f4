package dev.waitroom.gateway.correlation;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.Charset;
import org.springframework.boot.logging.logback.StructuredLogEncoder;

/**
 * The gateway's console encoder (logback-spring.xml): Boot's structured JSON encoder when {@code
 * logging.structured.format.console} is set (from {@code WAITROOM_LOG_FORMAT=ecs}, which compose and Kubernetes set),
 * Boot's readable pattern otherwise (the launcher). The gateway has its own logback configuration (the asynchronous
 * access log), which Boot's choice between its two console appenders does not reach.
 */
public final class ConsoleEncoder extends EncoderBase<ILoggingEvent> {

    private String format = "";

    private String pattern = "";

    private Charset charset = Charset.defaultCharset();

    private Encoder<ILoggingEvent> delegate;

    public void setFormat(String format) {
        this.format = format == null ? "" : format.strip();
    }

    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    public void setCharset(Charset charset) {
        this.charset = charset;
    }

    @Override
    public void start() {
        if (format.isEmpty() || format.endsWith("_IS_UNDEFINED")) {
            PatternLayoutEncoder readable = new PatternLayoutEncoder();
            readable.setContext(getContext());
            readable.setPattern(pattern);
            readable.setCharset(charset);
            readable.start();
            delegate = readable;
        } else {
            StructuredLogEncoder json = new StructuredLogEncoder();
            json.setContext(getContext());
            json.setFormat(format);
            json.setCharset(charset);
            json.start();
            delegate = json;
        }
        super.start();
    }

    @Override
    public void stop() {
        if (delegate != null) {
            delegate.stop();
        }
        super.stop();
    }

    @Override
    public byte[] headerBytes() {
        return delegate.headerBytes();
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return delegate.encode(event);
    }

    @Override
    public byte[] footerBytes() {
        return delegate.footerBytes();
    }
}
