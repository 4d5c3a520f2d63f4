package dev.waitroom.coordinator.problems;

/**
 * A failure with a stable problem type. {@code slug} becomes the last segment of the problem's
 * {@code type} URI; the message is safe to show (it never carries visitor ids or tokens).
 */
public class CoordinatorException extends RuntimeException {

	private final String slug;

	private final ProblemKind kind;

	public CoordinatorException(ProblemKind kind, String slug, String message) {
		super(message);
		this.kind = kind;
		this.slug = slug;
	}

	public ProblemKind kind() {
		return this.kind;
	}

	public String slug() {
		return this.slug;
	}

}
