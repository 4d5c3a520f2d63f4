package dev.waitroom.queue.web;

import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.contract.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** Refuses bodies over the limit, declared (Content-Length) or streamed (chunked), with 413. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class BodyLimitFilter extends OncePerRequestFilter {

    private final int maxBytes;

    BodyLimitFilter(QueueProperties properties) {
        this.maxBytes = properties.maxBodyBytes();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            ProblemResponses.write(response, Problem.BODY_TOO_LARGE, "Request bodies are limited to " + maxBytes + " bytes.");
            return;
        }
        chain.doFilter(new Limited(request, maxBytes), response);
    }

    /** Thrown while reading past the limit; the problem handler answers 413. */
    static final class BodyTooLargeException extends IOException {
        BodyTooLargeException() {
            super("request body over the limit");
        }
    }

    private static final class Limited extends HttpServletRequestWrapper {

        private final int maxBytes;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, int maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0) {
                            count(1);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = in.read(buf, off, len);
                        if (n > 0) {
                            count(n);
                        }
                        return n;
                    }

                    private void count(int n) throws IOException {
                        read += n;
                        if (read > maxBytes) {
                            throw new BodyTooLargeException();
                        }
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
