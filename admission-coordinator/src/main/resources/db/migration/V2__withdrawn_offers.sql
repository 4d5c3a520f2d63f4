-- An offer the queue could not apply (the visitor left the queue meanwhile) is withdrawn at once.
alter table grants drop constraint grants_release_reason_check;
alter table grants add constraint grants_release_reason_check
    check (release_reason in ('OFFER_EXPIRED', 'SESSION_EXPIRED', 'LEFT', 'PURCHASED', 'WITHDRAWN'));
