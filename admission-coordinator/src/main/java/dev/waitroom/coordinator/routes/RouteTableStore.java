package dev.waitroom.coordinator.routes;

import dev.waitroom.contract.routes.RouteTable;

/** Where the gateway reads the route table from ({@link dev.waitroom.contract.RedisKeys#ROUTES}). */
public interface RouteTableStore {

    /** Replaces the table; throws when the store cannot be reached. */
    void write(RouteTable table);
}
