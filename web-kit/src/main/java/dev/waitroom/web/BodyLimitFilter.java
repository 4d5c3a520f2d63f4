package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;

/**
 * Refuses request bodies over the limit with 413 before a handler reads more than the limit: a declared
 * {@code Content-Length} over it is answered at once, without reading the body; a body without a declared length
 * (chunked) is counted while it is read and stops with {@link BodyTooLargeException} one byte past the limit.
 * A body with a declared length within the limit is not wrapped: the container never delivers more bytes than the
 * declared length (what follows is the next request on the connection), so the common case costs nothing.
 */
final class BodyLimitFilter extends WebKitFilter {

    private final long maxBytes;

    BodyLimitFilter(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            ProblemResponses.write(response, ProblemType.BODY_TOO_LARGE, detail(maxBytes), request);
            return;
        }
        boolean bounded = declared >= 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null;
        chain.doFilter(bounded ? request : new LimitedRequest(request, maxBytes), response);
    }

    static String detail(long maxBytes) {
        return "Request bodies are limited to " + maxBytes + " bytes.";
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {

        private final long maxBytes;

        private ServletInputStream stream;

        private BufferedReader reader;

        LimitedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingInputStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }

        /** The container's reader would bypass the count, so the reader reads the counted stream. */
        @Override
        public BufferedReader getReader() throws IOException {
            if (reader == null) {
                String encoding = getCharacterEncoding();
                Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
                reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
            }
            return reader;
        }
    }

    private static final class CountingInputStream extends ServletInputStream {

        private final ServletInputStream body;

        private final long maxBytes;

        private long count;

        CountingInputStream(ServletInputStream body, long maxBytes) {
            this.body = body;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            refuseIfOver();
            int b = body.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        /** Asks the container for at most one byte past the limit, so no more than that is ever taken in. */
        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            refuseIfOver();
            if (length == 0) {
                return 0;
            }
            int n = body.read(buffer, offset, (int) Math.min(length, maxBytes - count + 1));
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        /** Past the limit the bytes just read are not handed out, and every later read fails the same way. */
        private void counted(int n) throws BodyTooLargeException {
            count += n;
            refuseIfOver();
        }

        private void refuseIfOver() throws BodyTooLargeException {
            if (count > maxBytes) {
                throw new BodyTooLargeException(maxBytes);
            }
        }

        @Override
        public void close() throws IOException {
            body.close();
        }

        @Override
        public boolean isFinished() {
            return body.isFinished();
        }

        @Override
        public boolean isReady() {
            return body.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            body.setReadListener(listener);
        }
    }
}
