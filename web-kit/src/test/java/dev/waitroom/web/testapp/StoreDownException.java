package dev.waitroom.web.testapp;

/** A failure only this service knows: its own advice answers it, not the kit's catch-all. */
public class StoreDownException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreDownException() {
        super("store down at 10.0.0.7");
    }
}
