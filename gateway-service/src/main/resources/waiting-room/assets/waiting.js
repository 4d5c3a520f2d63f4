/*
 * The waiting page: joins on load (idempotent), polls the visitor status with the server's
 * pollAfterSeconds plus jitter, backs off on errors while saying the place is kept, and claims an
 * offer automatically, then opens the shop.
 */
(function () {
  'use strict';
  var W = window.Waitroom;
  var event = W.eventId();
  var base = '/events/' + encodeURIComponent(event);
  var failures = 0;
  var pollTimer = null;
  var claiming = false;
  var sessionRefreshed = false;
  var countdownTimer = null;
  var opensAt = null;

  function schedule(seconds) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, W.jittered(Math.max(1, seconds)));
  }

  function connectionTrouble(message) {
    failures += 1;
    W.setText('connection', message || 'Reconnecting — your place is kept.');
    W.show('connection', true);
    var backoff = Math.min(60, Math.pow(2, failures));
    schedule(backoff);
  }

  function connected() {
    failures = 0;
    W.show('connection', false);
  }

  function join() {
    W.request('POST', base + '/queue', {}).then(function (r) {
      if (r.ok && r.body) {
        connected();
        startEventUpdates();
        render(r.body);
        schedule(r.body.pollAfterSeconds || 5);
      } else if (r.status === 429) {
        W.setText('connection', 'Many requests at once — waiting a moment. Your place is kept.');
        W.show('connection', true);
        setTimeout(join, W.jittered(r.retryAfter || 5));
      } else if (r.status === 404) {
        W.setText('headline', 'There is no sale at this address.');
        W.setText('detail', 'Please check the link you followed.');
      } else {
        failures += 1;
        W.setText('connection', (r.body && r.body.detail) || 'Reconnecting — trying to join the queue.');
        W.show('connection', true);
        setTimeout(join, W.jittered(Math.min(60, Math.pow(2, failures))));
      }
    }, function () {
      failures += 1;
      W.setText('connection', 'Reconnecting — trying to join the queue.');
      W.show('connection', true);
      setTimeout(join, W.jittered(Math.min(60, Math.pow(2, failures))));
    });
  }

  function poll() {
    W.request('GET', base + '/queue/status').then(function (r) {
      if (r.ok && r.body) {
        connected();
        render(r.body);
        schedule(r.body.pollAfterSeconds || 5);
      } else if (r.status === 404) {
        join();
      } else if (r.status === 429) {
        schedule(r.retryAfter || 5);
      } else {
        connectionTrouble();
      }
    }, function () {
      connectionTrouble();
    });
  }

  function band(position) {
    if (!position) { return 'Not known yet'; }
    if (position.aheadMax === 0) { return 'Nobody — you are at the front'; }
    if (position.aheadMin === position.aheadMax) {
      return position.aheadMin === 1 ? '1 person' : W.count(position.aheadMin) + ' people';
    }
    return 'Between ' + W.count(position.aheadMin) + ' and ' + W.count(position.aheadMax) + ' people';
  }

  function estimate(wait, status) {
    if (status.mode === 'PAUSED') { return 'Not while admission is paused'; }
    if (!wait) { return 'Not known yet'; }
    if (wait.max < 60) { return 'Less than a minute (an estimate)'; }
    var low = W.duration(wait.min);
    var high = W.duration(wait.max);
    return (low === high ? 'About ' + high : 'Between ' + low + ' and ' + high) +
      ' (an estimate: it changes when the admission rate changes)';
  }

  function render(s) {
    if (s.phase !== 'SCHEDULED') {
      W.setText('ahead', band(s.position)); /* before opening, the event status says how big the group is */
    }
    W.setText('wait', estimate(s.estimatedWaitSeconds, s));
    if (s.receipt) { W.setText('receipt', s.receipt); }
    if (s.announcement) {
      W.setText('announcement', s.announcement);
      W.show('announcement-box', true);
    } else {
      W.show('announcement-box', false);
    }
    W.show('offer', false);
    W.show('rejoin-box', false);
    if (s.phase === 'SCHEDULED') {
      W.setText('headline', 'You are in the pre-sale group.');
      W.setText('detail', 'The sale has not opened yet. When it opens, places in this group are drawn at random, ' +
        'so there is no need to arrive earlier or to refresh.');
      return;
    }
    if (s.phase === 'ENDED') {
      W.setText('headline', 'The sale has ended.');
      W.setText('detail', 'No more visitors will be let into the shop for this event.');
      return;
    }
    if (s.mode === 'SOLD_OUT') {
      W.setText('headline', 'Tickets are sold out.');
      W.setText('detail', 'There is nothing left to buy for this event, so the queue has stopped. ' +
        'We are sorry. You can close this page.');
      return;
    }
    if (s.mode === 'BYPASS') {
      W.setText('headline', 'The waiting room is not needed right now.');
      W.setText('detail', 'You can go straight to the shop.');
      document.getElementById('enter').href = base + '/shop-ui';
      W.setText('offer-text', 'The shop is open to everyone at the moment.');
      W.show('offer', true);
      return;
    }
    switch (s.state) {
      case 'OFFERED':
        W.setText('headline', 'It is your turn.');
        W.setText('detail', 'We are taking you into the shop now.');
        if (s.offer && s.offer.expiresAt) {
          W.setText('offer-text', 'Your offer is held until ' + W.time(s.offer.expiresAt) + '.');
        }
        document.getElementById('enter').href = base + '/shop-ui';
        W.show('offer', true);
        claim(true);
        return;
      case 'ACTIVE':
        W.setText('headline', 'You have a shopping session.');
        W.setText('detail', 'Your session in the shop is open; continue shopping with the link below.');
        W.setText('offer-text', 'Your place in the shop is held for you.');
        document.getElementById('enter').href = base + '/shop-ui';
        W.show('offer', true);
        if (!sessionRefreshed) {
          sessionRefreshed = true;
          claim(false);
        }
        return;
      case 'COMPLETED':
        W.setText('headline', 'Your visit to the shop is complete.');
        W.setText('detail', 'Thank you. You can close this page.');
        return;
      case 'EXPIRED':
        W.setText('headline', 'Your turn has passed.');
        W.setText('detail', 'The offer was not taken in time, so this place has ended.');
        W.show('rejoin-box', true);
        return;
      case 'LEFT':
        W.setText('headline', 'You left the queue.');
        W.setText('detail', 'Join again to get a new place at the back of the queue.');
        W.show('rejoin-box', true);
        return;
      default:
        break;
    }
    if (s.mode === 'PAUSED') {
      W.setText('headline', 'Admission is paused. Your place is kept.');
      W.setText('detail', 'Nobody is being let in at the moment, so the queue is not moving. ' +
        'You do not need to do anything; this page continues when admission resumes.');
      return;
    }
    W.setText('headline', 'You are in the queue. Your place is kept.');
    W.setText('detail', s.position && s.position.aheadMax === 0 ? 'You are next.'
      : 'We will take you to the shop when it is your turn.');
  }

  /* Claiming is idempotent: for an open session it returns the same session and token again. */
  function claim(thenEnterShop) {
    if (claiming) { return; }
    claiming = true;
    W.request('POST', base + '/admission/claim', {}).then(function (r) {
      claiming = false;
      if (r.ok) {
        try {
          if (r.body && r.body.expiresAt) { sessionStorage.setItem('waitroom.session.' + event, r.body.expiresAt); }
        } catch (e) { /* storage is optional */ }
        if (thenEnterShop) { window.location.assign(base + '/shop-ui'); }
      } else if (r.status === 503 || r.status === 429) {
        W.setText('connection', (r.body && r.body.detail) ||
          'Admission is paused for a moment. Your place is kept; this page keeps trying.');
        W.show('connection', true);
        schedule(r.retryAfter || 5);
      } else {
        schedule(2);
      }
    }, function () {
      claiming = false;
      connectionTrouble('Reconnecting — your offer and your place are kept while we retry.');
    });
  }

  function loadEvent() {
    W.request('GET', base + '/status').then(function (r) {
      if (!r.ok || !r.body) { return; }
      var e = r.body;
      if (e.commitment) { W.setText('commitment', e.commitment); }
      if (e.seed) { W.setText('seed', e.seed); }
      if (e.drawCompletedAt) {
        W.setText('draw', 'Ran at ' + W.time(e.drawCompletedAt) +
          (e.presaleCount != null ? ' among ' + W.count(e.presaleCount) + ' people in the pre-sale group' : ''));
      } else if (e.phase && e.phase !== 'SCHEDULED') {
        W.setText('draw', 'No draw was needed: nobody joined before opening, or the event is first come, first served');
      }
      if (e.phase === 'SCHEDULED' && e.queueLength) {
        W.setText('ahead', e.queueLength.max === e.queueLength.min
          ? W.count(e.queueLength.min) + ' people in the pre-sale group so far (the draw decides the order)'
          : 'Between ' + W.count(e.queueLength.min) + ' and ' + W.count(e.queueLength.max) +
            ' people in the pre-sale group so far (the draw decides the order)');
      }
      if (e.phase === 'SCHEDULED' && e.opensAt) {
        opensAt = new Date(e.opensAt);
        W.setText('opens-at', 'The sale opens ' + W.dateTime(e.opensAt) + ' (your local time).');
        W.show('countdown-box', true);
        tick();
      } else {
        W.show('countdown-box', false);
        clearTimeout(countdownTimer);
      }
    }, function () { /* the status poll reports connection trouble */ });
    setTimeout(loadEvent, W.jittered(30));
  }

  /* The countdown is outside the live region: screen readers are not interrupted every second. */
  function tick() {
    clearTimeout(countdownTimer);
    if (!opensAt) { return; }
    var seconds = Math.round((opensAt.getTime() - Date.now()) / 1000);
    if (seconds <= 0) {
      W.setText('countdown', 'Opening now.');
      return;
    }
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var sec = seconds % 60;
    W.setText('countdown', 'Opens in ' + (h > 0 ? h + ' h ' : '') + m + ' min ' + sec + ' s.');
    countdownTimer = setTimeout(tick, 1000);
  }

  document.getElementById('rejoin').addEventListener('click', function () {
    W.show('rejoin-box', false);
    W.setText('headline', 'Joining the queue…');
    join();
  });

  var eventUpdates = false;

  /* After the join, so the visitor cookie is set once, by the join. */
  function startEventUpdates() {
    if (!eventUpdates) {
      eventUpdates = true;
      loadEvent();
    }
  }

  W.setText('event-title', 'Waiting room: ' + event);
  document.title = 'Waiting room: ' + event;
  join();
}());
