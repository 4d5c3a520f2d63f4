package dev.waitroom.queue.draw;

/** What one write of the draw did. */
enum DrawWrite {
    PARTIAL,
    COMPLETE
}
