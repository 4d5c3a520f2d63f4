-- What each event protects (docs/integration/gateway-in-front.md): the origin its paths are forwarded to, an optional
-- Host header and the path patterns. Null origin: the event protects nothing (only the waiting room is served).
alter table events add column protect_origin text;
alter table events add column protect_host text;
alter table events add column protect_paths text[];
