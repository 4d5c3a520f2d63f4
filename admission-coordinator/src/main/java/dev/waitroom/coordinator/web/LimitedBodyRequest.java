package dev.waitroom.coordinator.web;

import java.io.IOException;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/** Stops reading a body (also a chunked one, which has no Content-Length) once it passes the limit. */
final class LimitedBodyRequest extends HttpServletRequestWrapper {

	private final long limit;

	private ServletInputStream stream;

	LimitedBodyRequest(HttpServletRequest request, long limit) {
		super(request);
		this.limit = limit;
	}

	@Override
	public ServletInputStream getInputStream() throws IOException {
		if (this.stream == null) {
			this.stream = new Limited(super.getInputStream(), this.limit);
		}
		return this.stream;
	}

	/** Thrown from the body stream; the problem handler answers 413. */
	static final class BodyTooLargeException extends IOException {

		BodyTooLargeException(long limit) {
			super("Request bodies are limited to " + limit + " bytes.");
		}

	}

	private static final class Limited extends ServletInputStream {

		private final ServletInputStream in;

		private final long limit;

		private long read;

		Limited(ServletInputStream in, long limit) {
			this.in = in;
			this.limit = limit;
		}

		@Override
		public int read() throws IOException {
			int b = this.in.read();
			if (b >= 0) {
				count(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int n = this.in.read(buffer, offset, length);
			if (n > 0) {
				count(n);
			}
			return n;
		}

		private void count(int n) throws IOException {
			this.read += n;
			if (this.read > this.limit) {
				throw new BodyTooLargeException(this.limit);
			}
		}

		@Override
		public boolean isFinished() {
			return this.in.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.in.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.in.setReadListener(listener);
		}

	}

}
