-- Each service owns its database: capacity in one, inventory in the other.
CREATE DATABASE coordinator;
CREATE DATABASE booking;
