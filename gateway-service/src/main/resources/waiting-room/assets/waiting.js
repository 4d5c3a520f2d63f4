/*
 * The waiting page: joins on load (idempotent), polls the visitor status with the server's
 * pollAfterSeconds plus jitter, backs off on errors while saying the place is kept, and claims an
 * offer automatically, then opens the shop. When the event asks for a proof of work, the join is
 * refused with a challenge, which a Web Worker solves before the page joins again with the solution
 * (docs/abuse/proof-of-work.md). A join refused for load (503, 429) is retried after Retry-After
 * plus up to half as much again, so refused pages do not come back together.
 *
 * The rules under "How the queue is ordered" are written from the event's published policy in the public event
 * status, one sentence per rule and value (docs/sale-rules/the-page.md), never fixed text. While admission is paused
 * or the event is sold out the page shows no progress; a claim refused 503 admission-paused is retried after
 * Retry-After plus jitter while the offer is held, one refused 409 sold-out shows the sold-out state.
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
  var proof = null; /* a solved join challenge, kept until a join succeeds (the gateway gives it back on 503) */
  var solving = false;
  var PROOF_PROBLEM = /\/proof-of-work-(required|invalid|replayed)$/;
  var eventInfo = null; /* the latest public event status: name, policy, saleGeneration, soldOutCategories */
  var lastStatus = null; /* the latest visitor status, drawn again when the event's rules arrive */
  var lastMode = null;
  var seenGeneration = null;
  var eventTimer = null;
  var claimTimer = null;
  var claimRetryAt = 0;
  var offerHeld = false; /* a claim was refused while admission is paused: the offer is held */
  var offerWithdrawn = false; /* a claim was refused because the event sold out */

  /*
   * One sentence (or two) per rule and value, in plain words. A value the page does not know is not described:
   * the page never guesses a rule.
   */
  var RULES = {
    presaleOrdering: {
      RANDOM: ['Everyone who joins before the sale opens is in the pre-sale group. When the sale opens, the order ' +
        'of this group is decided by a random draw, so arriving early in that period gives no advantage.',
        'The draw can be checked and cannot be run twice. Before opening we publish a fingerprint (a SHA-256 ' +
        'commitment) of a secret random number, the seed. After the draw we publish the seed itself. Each place ' +
        'in the group is the order of HMAC-SHA256(seed, receipt), so anyone can check their own place with the ' +
        'receipt below.'],
      FIFO: ['Everyone who joins before the sale opens is in the pre-sale group, and this group is served in the ' +
        'order people joined: the earlier you join, the earlier your turn.']
    },
    expiredOfferPolicy: {
      REQUEUE_ONCE: ['If it is your turn and the offer is not taken in time, you go to the back of the queue once; ' +
        'a second missed offer ends your place.'],
      DROP: ['If it is your turn and the offer is not taken in time, your place ends at once; you can join the ' +
        'queue again, at the back.']
    },
    afterPurchase: {
      RELEASE: ['When you complete a purchase, your shopping session ends and makes room for the next person; ' +
        'to buy again, you join the queue again, at the back.'],
      KEEP: ['When you complete a purchase, your shopping session stays open until its time runs out, so you can ' +
        'buy more in the same visit; the purchase uses up your place in the queue.']
    },
    identityScope: {
      BROWSER: ['Your place belongs to this browser, which keeps it in a cookie: opening the sale in another ' +
        'browser or on another device gives a separate place at the back, not a better one, and clearing your ' +
        'cookies loses this place.'],
      ACCOUNT: ['Your place belongs to your account, not to this browser: one place per account, whichever ' +
        'browser or device you use.']
    }
  };

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

  function problemType(r) {
    return r.body && typeof r.body.type === 'string' ? r.body.type : '';
  }

  function join() {
    var headers = proof ? { 'X-Waitroom-Proof': proof } : undefined;
    W.request('POST', base + '/queue', {}, headers).then(function (r) {
      if (r.ok && r.body) {
        proof = null;
        connected();
        startEventUpdates();
        render(r.body);
        schedule(r.body.pollAfterSeconds || 5);
      } else if (r.status === 403 && PROOF_PROBLEM.test(problemType(r))) {
        proof = null;
        if (r.body.challenge) {
          solveThenJoin(r.body.challenge);
        } else {
          fetchChallengeThenJoin();
        }
      } else if (r.status === 429 || r.status === 503) {
        joinLater(r);
      } else if (r.status === 404) {
        W.setText('headline', 'There is no sale at this address.');
        W.setText('detail', 'Please check the link you followed.');
      } else if (r.status === 409 && /\/sold-out$/.test(problemType(r))) {
        connected();
        startEventUpdates();
        showSoldOut('none');
        setTimeout(join, W.jittered(60)); /* a new round of the sale may open */
      } else if (r.status === 410) {
        connected();
        startEventUpdates();
        showEnded();
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

  /* Why a join was refused for load, in plain words. */
  function refusalReason(r) {
    var type = problemType(r);
    if (/\/joins-throttled$/.test(type)) {
      return 'Many people are joining at this moment, so joining is held back for a few seconds.';
    }
    if (/\/queue-store-full$/.test(type)) {
      return 'The queue is full for the moment.';
    }
    if (r.status === 429) {
      return /\/client-rate-limited$/.test(type) ? 'Many requests came from your network at once.'
        : 'Many requests came from this browser at once.';
    }
    return 'The queue cannot be reached for a moment.';
  }

  /* Retry-After plus up to 50 % more, so pages refused together do not return together. */
  function joinLater(r) {
    var seconds = r.retryAfter || 5;
    var delay = Math.round(seconds * 1000 * (1 + Math.random() * 0.5));
    var about = Math.max(1, Math.round(delay / 1000));
    W.setText('connection', refusalReason(r) + ' You have not lost anything: a place is only given once ' +
      'joining succeeds. This page tries again by itself in about ' + about +
      (about === 1 ? ' second.' : ' seconds.'));
    W.show('connection', true);
    setTimeout(join, delay);
  }

  function fetchChallengeThenJoin() {
    W.request('GET', base + '/queue/challenge').then(function (r) {
      if (r.status === 200 && r.body && r.body.challenge) {
        solveThenJoin(r.body);
      } else if (r.status === 204) {
        join();
      } else {
        failures += 1;
        setTimeout(fetchChallengeThenJoin, W.jittered(Math.min(60, Math.pow(2, failures))));
      }
    }, function () {
      failures += 1;
      setTimeout(fetchChallengeThenJoin, W.jittered(Math.min(60, Math.pow(2, failures))));
    });
  }

  /*
   * Solves the challenge in a Web Worker (the page stays responsive), telling screen readers how far it is through
   * the live region at most every two seconds, then joins with the solution. Nothing to do by hand.
   */
  function solveThenJoin(challenge) {
    if (solving) { return; }
    var worker = null;
    try { worker = new Worker('/assets/proof-of-work.js'); } catch (e) { worker = null; }
    if (!worker) {
      W.setText('headline', 'This browser cannot run the check that protects the queue.');
      W.setText('detail', 'Please open this page in an up-to-date browser to join.');
      return;
    }
    solving = true;
    var shown = -1;
    var shownAt = Date.now();
    W.setText('headline', 'Checking your browser…');
    W.setText('detail', 'Before you join, this page does a short calculation that keeps automated programs ' +
      'out. It takes a few seconds and needs nothing from you.');
    worker.onmessage = function (message) {
      var m = message.data || {};
      if (m.progress !== undefined) {
        var percent = Math.min(90, Math.floor(m.progress * 10) * 10);
        if (percent > shown && Date.now() - shownAt >= 2000) {
          shown = percent;
          shownAt = Date.now();
          W.setText('headline', 'Checking your browser… ' + percent + ' %');
        }
        return;
      }
      worker.terminate();
      solving = false;
      if (m.number !== undefined) {
        proof = btoa(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge,
          number: m.number, salt: challenge.salt, signature: challenge.signature }));
        W.setText('headline', 'Joining the queue…');
        W.setText('detail', '');
        join();
      } else {
        setTimeout(fetchChallengeThenJoin, W.jittered(2));
      }
    };
    worker.onerror = function () {
      worker.terminate();
      solving = false;
      setTimeout(fetchChallengeThenJoin, W.jittered(5));
    };
    worker.postMessage({ challenge: challenge.challenge, salt: challenge.salt, max: challenge.maxnumber });
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

  function estimate(wait) {
    if (!wait) { return 'Not known yet'; }
    if (wait.max < 60) { return 'Less than a minute (an estimate)'; }
    var low = W.duration(wait.min);
    var high = W.duration(wait.max);
    return (low === high ? 'About ' + high : 'Between ' + low + ' and ' + high) +
      ' (an estimate: it changes when the admission rate changes)';
  }

  /*
   * Sold out, said for where the visitor stands: waiting (the place is kept for a new round), an offer the sell-out
   * withdrew, no place (a join refused), or done with the queue.
   */
  function showSoldOut(kind) {
    var details = {
      waiting: 'There is nothing left to buy for this event, so the queue has stopped and nobody is let into the ' +
        'shop. We are sorry. If seats come back, a new round of the sale may open: your place is kept, and this ' +
        'page tells you.',
      withdrawn: 'Your offer was withdrawn because there is nothing left to buy, so nobody is let into the shop. ' +
        'We are sorry. Your place is kept: if seats come back, a new round of the sale may open, and you are ' +
        'offered again in your turn. This page tells you.',
      none: 'There is nothing left to buy for this event, so the queue is closed. We are sorry. If seats come back, ' +
        'a new round of the sale may open: this page tries to join by itself.',
      done: 'There is nothing left to buy for this event. We are sorry. You can close this page.'
    };
    W.setText('headline', 'Tickets are sold out.');
    W.setText('detail', details[kind] || details.done);
    W.setText('ahead', 'Not counted while the event is sold out');
    W.setText('wait', 'None: the event is sold out');
    W.show('offer', false);
    W.show('rejoin-box', false);
  }

  function showEnded() {
    W.setText('headline', 'The sale has ended.');
    W.setText('detail', 'No more visitors will be let into the shop for this event.');
    W.show('offer', false);
    W.show('rejoin-box', false);
  }

  function showOfferHeld() {
    W.setText('headline', 'It is your turn, but admission is paused for a moment.');
    W.setText('detail', 'Your offer is held for you while admission is paused: you lose nothing by waiting. ' +
      'This page takes you into the shop by itself when admission resumes.');
    W.setText('wait', 'None: it is your turn');
    W.show('offer', false);
  }

  function policyValue(rule) {
    return eventInfo && eventInfo.policy ? eventInfo.policy[rule] : null;
  }

  function render(s) {
    lastStatus = s;
    if (lastMode !== null && s.mode !== lastMode) {
      refreshEvent(); /* a pause lifted or a sale round opened: the event's status says which */
      if (s.mode === 'QUEUEING') {
        offerWithdrawn = false; /* a new round: an offer now is a new one */
      }
    }
    lastMode = s.mode;
    if (s.state !== 'OFFERED') {
      offerHeld = false;
      offerWithdrawn = false;
    }
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
      W.setText('wait', 'Not known yet');
      W.setText('headline', 'You are in the pre-sale group.');
      W.setText('detail', policyValue('presaleOrdering') === 'FIFO'
        ? 'The sale has not opened yet. When it opens, this group is served in the order people joined.'
        : 'The sale has not opened yet. When it opens, places in this group are drawn at random, ' +
          'so there is no need to arrive earlier or to refresh.');
      return; /* before opening, the event status says how big the group is */
    }
    if (s.phase === 'ENDED') {
      W.setText('ahead', 'Not counted: the sale has ended');
      W.setText('wait', 'None: the sale has ended');
      showEnded();
      return;
    }
    /* sold out, shoppers already inside keep their session until it ends */
    if ((s.mode === 'SOLD_OUT' && s.state !== 'ACTIVE') || (offerWithdrawn && s.state === 'OFFERED')) {
      showSoldOut(s.state === 'WAITING' ? 'waiting' : s.state === 'OFFERED' ? 'withdrawn' : 'done');
      return;
    }
    var paused = s.mode === 'PAUSED';
    /* no progress while paused: the place is shown as it stands, with no estimate */
    W.setText('ahead', paused && s.position ? band(s.position) + ' (the queue is not moving while admission is paused)'
      : band(s.position));
    W.setText('wait', paused ? 'Not while admission is paused' : estimate(s.estimatedWaitSeconds));
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
        if (offerHeld || paused) { /* the claim below is answered admission-paused until admission resumes */
          showOfferHeld();
        } else {
          W.setText('headline', 'It is your turn.');
          W.setText('detail', 'We are taking you into the shop now.');
          if (s.offer && s.offer.expiresAt) {
            W.setText('offer-text', 'Your offer is held until ' + W.time(s.offer.expiresAt) + '.');
          }
          document.getElementById('enter').href = base + '/shop-ui';
          W.show('offer', true);
        }
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
        rememberSpent(true);
        if (policyValue('afterPurchase') === 'RELEASE') {
          W.setText('detail', 'Thank you. To buy again, join the queue again: you get a new place at the back.');
          W.show('rejoin-box', true);
        } else {
          W.setText('detail', 'Thank you. You can close this page.');
        }
        return;
      case 'EXPIRED':
        rememberSpent(true);
        W.setText('headline', 'Your turn has passed.');
        W.setText('detail', 'The offer was not taken in time, so this place has ended. You can join the queue ' +
          'again: you get a new place at the back.');
        W.show('rejoin-box', true);
        return;
      case 'LEFT':
        rememberSpent(true);
        W.setText('headline', 'You left the queue.');
        W.setText('detail', 'Join again to get a new place at the back of the queue.');
        W.show('rejoin-box', true);
        return;
      default:
        break;
    }
    if (paused) {
      W.setText('headline', 'Admission is paused. Your place is kept.');
      W.setText('detail', 'Nobody is being let in at the moment, so the queue is not moving. ' +
        'You do not need to do anything; this page continues when admission resumes.');
      return;
    }
    W.setText('headline', 'You are in the queue. Your place is kept.');
    W.setText('detail', s.position && s.position.aheadMax === 0 ? 'You are next.'
      : 'We will take you to the shop when it is your turn.');
  }

  /* Retry-After plus up to 50 % more, in ms, so pages refused together do not return together. */
  function afterRetryAfter(r) {
    return Math.round((r.retryAfter || 5) * 1000 * (1 + Math.random() * 0.5));
  }

  /*
   * Claiming is idempotent: for an open session it returns the same session and token again. While admission is
   * paused the coordinator holds the offer and answers 503 admission-paused: the claim is tried again after
   * Retry-After (plus jitter), not before. A claim answered 409 sold-out means the offer was withdrawn.
   */
  function claim(thenEnterShop) {
    if (claiming || offerWithdrawn || Date.now() < claimRetryAt) { return; }
    clearTimeout(claimTimer);
    claiming = true;
    W.request('POST', base + '/admission/claim', {}).then(function (r) {
      claiming = false;
      var type = problemType(r);
      if (r.ok) {
        offerHeld = false;
        try {
          if (r.body && r.body.expiresAt) { sessionStorage.setItem('waitroom.session.' + event, r.body.expiresAt); }
        } catch (e) { /* storage is optional */ }
        if (thenEnterShop) { window.location.assign(base + '/shop-ui'); }
      } else if (r.status === 503 && /\/admission-paused$/.test(type)) {
        offerHeld = true;
        showOfferHeld();
        var delay = afterRetryAfter(r);
        claimRetryAt = Date.now() + delay;
        claimTimer = setTimeout(function () { claim(thenEnterShop); }, delay);
      } else if (r.status === 409 && /\/sold-out$/.test(type)) {
        offerWithdrawn = true;
        showSoldOut('withdrawn');
        refreshEvent();
      } else if (r.status === 503 || r.status === 429) {
        W.setText('connection', 'Admission cannot be reached for a moment. Your offer and your place are kept; ' +
          'this page keeps trying.');
        W.show('connection', true);
        var wait = afterRetryAfter(r);
        claimRetryAt = Date.now() + wait;
        claimTimer = setTimeout(function () { claim(thenEnterShop); }, wait);
      } else {
        schedule(2);
      }
    }, function () {
      claiming = false;
      connectionTrouble('Reconnecting — your offer and your place are kept while we retry.');
    });
  }

  /* The published rules, one list item per rule and value; the draw's proof only where there is a random draw. */
  function renderRules(e) {
    var list = document.getElementById('rules');
    var items = [];
    var policy = e.policy || {};
    ['presaleOrdering', 'expiredOfferPolicy', 'afterPurchase', 'identityScope'].forEach(function (rule) {
      var texts = RULES[rule][policy[rule]];
      (texts || []).forEach(function (text) {
        var li = document.createElement('li');
        li.setAttribute('data-rule', rule);
        li.setAttribute('data-value', policy[rule]);
        li.textContent = text;
        items.push(li);
      });
    });
    if (e.phase === 'SCHEDULED') {
      var opens = document.createElement('li');
      opens.setAttribute('data-rule', 'opensAt');
      opens.textContent = e.opensAt
        ? 'The sale is due to open ' + W.dateTime(e.opensAt) + ' (your local time).'
        : 'The opening time of the sale has not been announced yet.';
      items.push(opens);
    }
    if (items.length === 0) {
      var pending = document.createElement('li');
      pending.textContent = 'The rules of this sale are not published yet; this page shows them as soon as they are.';
      items.push(pending);
    }
    var text = items.map(function (li) { return li.textContent; }).join('\n');
    if (list.getAttribute('data-text') !== text) { /* unchanged rules are not rewritten */
      list.setAttribute('data-text', text);
      list.replaceChildren.apply(list, items);
    }
    var proof = policy.presaleOrdering !== 'FIFO';
    Array.prototype.forEach.call(document.querySelectorAll('.draw-proof'), function (row) { row.hidden = !proof; });
  }

  function renderName(e) {
    var title = e.name || event;
    W.setText('event-title', 'Waiting room: ' + title);
    if (document.title !== 'Waiting room: ' + title) { document.title = 'Waiting room: ' + title; }
  }

  /* Sold-out seat categories, from the public status only: no status poll reaches inventory. */
  function renderCategories(e) {
    var soldOut = e.soldOutCategories || [];
    if (soldOut.length === 0 || e.mode === 'SOLD_OUT') {
      W.show('categories-box', false);
      return;
    }
    W.setText('categories', 'Sold out: ' + soldOut.join(', ') + '. Seats in the other categories are still on sale.');
    W.show('categories-box', true);
  }

  /* A new sale round: said once on arrival when the round is not the first, and whenever it changes. */
  function renderRound(e) {
    var generation = e.saleGeneration || 1;
    if (seenGeneration === null ? generation > 1 : generation > seenGeneration) {
      var waiting = lastStatus && lastStatus.state === 'WAITING';
      W.setText('round', 'A new round of the sale has started (round ' + generation + '): seats are on sale again.' +
        (waiting ? ' Your place in the queue is kept; you do not need to do anything.' : ''));
      W.show('round-box', true);
    }
    seenGeneration = generation;
  }

  function refreshEvent() {
    if (eventUpdates) {
      clearTimeout(eventTimer);
      eventTimer = setTimeout(loadEvent, W.jittered(1));
    }
  }

  function loadEvent() {
    W.request('GET', base + '/status').then(function (r) {
      if (!r.ok || !r.body) { return; }
      var e = r.body;
      eventInfo = e;
      renderName(e);
      renderRules(e);
      renderCategories(e);
      renderRound(e);
      if (e.commitment) { W.setText('commitment', e.commitment); }
      if (e.seed) { W.setText('seed', e.seed); }
      if (e.policy && e.policy.presaleOrdering === 'FIFO') {
        W.setText('draw', 'No draw: this sale serves everyone in the order they joined');
      } else if (e.drawCompletedAt) {
        W.setText('draw', 'Ran at ' + W.time(e.drawCompletedAt) +
          (e.presaleCount != null ? ' among ' + W.count(e.presaleCount) + ' people in the pre-sale group' : ''));
      } else if (e.phase && e.phase !== 'SCHEDULED') {
        W.setText('draw', 'No draw was needed: nobody joined before opening, or the event is first come, first served');
      }
      if (e.phase === 'SCHEDULED' && e.queueLength) {
        W.setText('ahead', e.queueLength.max === e.queueLength.min
          ? W.count(e.queueLength.min) + ' people in the pre-sale group so far' + orderNote(e)
          : 'Between ' + W.count(e.queueLength.min) + ' and ' + W.count(e.queueLength.max) +
            ' people in the pre-sale group so far' + orderNote(e));
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
      if (lastStatus && lastStatus.state !== 'OFFERED') { render(lastStatus); } /* texts that depend on the rules */
    }, function () { /* the status poll reports connection trouble */ });
    clearTimeout(eventTimer);
    eventTimer = setTimeout(loadEvent, W.jittered(30));
  }

  function orderNote(e) {
    return e.policy && e.policy.presaleOrdering === 'FIFO' ? ' (served in the order they joined)'
      : ' (the draw decides the order)';
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

  /* A place that ended (left, expired, or spent by a purchase under afterPurchase RELEASE) is followed by a new one. */
  document.getElementById('rejoin').addEventListener('click', function () {
    W.show('rejoin-box', false);
    rememberSpent(false);
    W.setText('headline', 'Joining the queue…');
    W.setText('detail', '');
    sessionRefreshed = false;
    offerHeld = false;
    offerWithdrawn = false;
    claimRetryAt = 0;
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

  /* A place that ended in this browser (left, expired, or spent by a purchase) is remembered, so that a reload shows
     it instead of joining again without being asked: the queue-service makes a new place for a spent one, and only the
     "Join the queue again" button should take it. */
  function rememberSpent(spent) {
    try {
      if (spent) {
        window.localStorage.setItem(spentKey, '1');
      } else {
        window.localStorage.removeItem(spentKey);
      }
    } catch (e) { /* storage refused (private mode): a reload joins, as before */ }
  }

  function spentHere() {
    try {
      return window.localStorage.getItem(spentKey) === '1';
    } catch (e) {
      return false;
    }
  }

  /* Reload after a spent place: read the status first; no entry (or any answer but a status) joins as usual. */
  function statusThenJoin() {
    W.request('GET', base + '/queue/status').then(function (r) {
      if (r.ok && r.body) {
        connected();
        startEventUpdates();
        render(r.body);
        schedule(r.body.pollAfterSeconds || 5);
      } else {
        join();
      }
    }, function () {
      join();
    });
  }

  var spentKey = 'waitroom-spent:' + event;

  W.setText('event-title', 'Waiting room: ' + event);
  document.title = 'Waiting room: ' + event;
  if (spentHere()) {
    statusThenJoin();
  } else {
    join();
  }
}());
