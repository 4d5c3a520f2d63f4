/*
 * The waiting page: joins on load (idempotent), polls the visitor status with the server's
 * pollAfterSeconds plus jitter, backs off on errors while saying the place is kept, and claims an
 * offer automatically, then opens the shop. When the event asks for a proof of work, the join is
 * refused with a challenge, which a Web Worker solves before the page joins again with the solution
 * (docs/design/abuse/proof-of-work.md). A join refused for load (503, 429) is retried after Retry-After
 * plus up to half as much again, so refused pages do not come back together.
 *
 * The rules under "How the queue is ordered" are written from the event's published policy in the public event
 * status, one sentence per rule and value (docs/design/sale-rules/the-page.md), never fixed text. While admission is paused
 * or the event is sold out the page shows no progress; a claim refused 503 admission-paused is retried after
 * Retry-After plus jitter while the offer is held, one refused 409 sold-out shows the sold-out state.
 */
(function () {
  'use strict';
  var W = window.Waitroom;
  var event = W.eventId();
  var base = '/events/' + encodeURIComponent(event);
  /* where an admitted buyer goes: the event's shop page, or the protected page they asked for (?return=), once the
     gateway has said that page is this event's own (docs/integration/gateway-in-front.md#the-buyers-way-in) */
  var shopTarget = base + '/shop-ui';
  (function returnTarget() {
    var asked = new URLSearchParams(window.location.search).get('return');
    if (!asked) { return; }
    W.request('GET', base + '/return-target?path=' + encodeURIComponent(asked)).then(function (r) {
      var target = r.ok && r.body && r.body.target;
      /* the gateway's answer only, and only a local path: never '//host' or a scheme */
      if (typeof target === 'string' && target.charAt(0) === '/' && target.charAt(1) !== '/' && target.charAt(1) !== '\\') {
        shopTarget = target;
        var enter = document.getElementById('enter');
        if (enter && enter.getAttribute('href') === base + '/shop-ui') { enter.href = target; }
      }
    });
  })();
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
   * One sentence (or two) per rule and value, in plain words: the keys of the messages (i18n/<language>.json). A value
   * the page does not know is not described: the page never guesses a rule.
   */
  var RULES = {
    presaleOrdering: {
      RANDOM: ['rule.presaleOrdering.RANDOM', 'rule.presaleOrdering.RANDOM.proof'],
      FIFO: ['rule.presaleOrdering.FIFO']
    },
    expiredOfferPolicy: {
      REQUEUE_ONCE: ['rule.expiredOfferPolicy.REQUEUE_ONCE'],
      DROP: ['rule.expiredOfferPolicy.DROP']
    },
    afterPurchase: {
      RELEASE: ['rule.afterPurchase.RELEASE'],
      KEEP: ['rule.afterPurchase.KEEP']
    },
    identityScope: {
      BROWSER: ['rule.identityScope.BROWSER'],
      ACCOUNT: ['rule.identityScope.ACCOUNT']
    }
  };

  /* Why the estimate's range is wide, by the status's caveat code; an unknown code says nothing. */
  var CAVEATS = {
    MEASURING: 'caveat.MEASURING',
    SLOWED: 'caveat.SLOWED',
    SPED_UP: 'caveat.SPED_UP',
    RESUMED: 'caveat.RESUMED'
  };

  function schedule(seconds) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, W.jittered(Math.max(1, seconds)));
  }

  function connectionTrouble(message) {
    failures += 1;
    W.setText('connection', message || W.t('connection.reconnecting'));
    W.show('connection', true);
    var backoff = Math.min(60, Math.pow(2, failures));
    schedule(backoff);
  }

  function connected() {
    failures = 0;
    W.show('connection', false);
    W.show('sign-in-box', false);
  }

  /*
   * An account-scoped sale refuses a visitor without a valid sign-in: 401 sign-in-required (with the operator's
   * signInUrl when configured) or account-token-invalid. The page says so and links to the sign-in; it does not retry.
   */
  function signInProblem(r) {
    var type = problemType(r);
    var expired = /\/account-token-invalid$/.test(type);
    if (r.status !== 401 || !(expired || /\/sign-in-required$/.test(type))) { return false; }
    var url = r.body && r.body.signInUrl ? W.safeUrl(r.body.signInUrl) : null;
    W.setText('headline', W.t(expired ? 'signIn.expired.headline' : 'signIn.required.headline'));
    W.setText('detail', W.t(expired ? 'signIn.expired.detail' : 'signIn.required.detail') +
      (url ? '' : ' ' + W.t('signIn.noLink')));
    if (url) { document.getElementById('sign-in').href = url; }
    W.show('sign-in-box', !!url);
    W.show('connection', false);
    W.show('offer', false);
    clearTimeout(pollTimer);
    return true;
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
      } else if (signInProblem(r)) {
        return;
      } else if (r.status === 404) {
        W.setText('headline', W.t('join.noSale.headline'));
        W.setText('detail', W.t('join.noSale.detail'));
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
        W.setText('connection', W.t('connection.joining')); /* a problem's detail is the API's English */
        W.show('connection', true);
        setTimeout(join, W.jittered(Math.min(60, Math.pow(2, failures))));
      }
    }, function () {
      failures += 1;
      W.setText('connection', W.t('connection.joining'));
      W.show('connection', true);
      setTimeout(join, W.jittered(Math.min(60, Math.pow(2, failures))));
    });
  }

  /* Why a join was refused for load, in plain words. */
  function refusalReason(r) {
    var type = problemType(r);
    if (/\/joins-throttled$/.test(type)) {
      return W.t('refusal.throttled');
    }
    if (/\/queue-store-full$/.test(type)) {
      return W.t('refusal.storeFull');
    }
    if (r.status === 429) {
      return W.t(/\/client-rate-limited$/.test(type) ? 'refusal.network' : 'refusal.browser');
    }
    return W.t('refusal.unreachable');
  }

  /*
   * Why offers are held back, in plain words (docs/operating/schedules-and-pauses.md): the shop's health paused or
   * slowed admission, or a planned window holds it; with the window's reason and its planned end where known.
   */
  function showHold(hold) {
    var known = { SHOP_PAUSED: 1, SHOP_SLOWED: 1, PLANNED_PAUSE: 1, PLANNED_QUEUE_ALL: 1 };
    var cause = known[hold.cause] ? hold.cause : 'PLANNED_PAUSE';
    W.setText('headline', W.t('hold.' + cause + '.headline'));
    var detail = W.t('hold.' + cause + '.detail');
    if (hold.reason) { detail += ' ' + W.t('hold.reason', { reason: hold.reason }); }
    if (hold.until) { detail += ' ' + W.t('hold.until', { time: W.time(hold.until) }); }
    W.setText('detail', detail);
  }

  /* Retry-After plus up to 50 % more, so pages refused together do not return together. */
  function joinLater(r) {
    var seconds = r.retryAfter || 5;
    var delay = Math.round(seconds * 1000 * (1 + Math.random() * 0.5));
    var about = Math.max(1, Math.round(delay / 1000));
    W.setText('connection', refusalReason(r) + ' ' + W.t('refusal.retry', { count: about }));
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
      W.setText('headline', W.t('proofOfWork.unsupported.headline'));
      W.setText('detail', W.t('proofOfWork.unsupported.detail'));
      return;
    }
    solving = true;
    var shown = -1;
    var shownAt = Date.now();
    W.setText('headline', W.t('proofOfWork.checking'));
    W.setText('detail', W.t('proofOfWork.detail'));
    worker.onmessage = function (message) {
      var m = message.data || {};
      if (m.progress !== undefined) {
        var percent = Math.min(90, Math.floor(m.progress * 10) * 10);
        if (percent > shown && Date.now() - shownAt >= 2000) {
          shown = percent;
          shownAt = Date.now();
          W.setText('headline', W.t('proofOfWork.progress', { percent: W.percent(percent / 100) }));
        }
        return;
      }
      worker.terminate();
      solving = false;
      if (m.number !== undefined) {
        proof = btoa(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge,
          number: m.number, salt: challenge.salt, signature: challenge.signature }));
        W.setText('headline', W.t('status.joining'));
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
      } else if (signInProblem(r)) {
        return;
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
    if (!position) { return W.t('status.notKnown'); }
    if (position.aheadMax === 0) { return W.t('ahead.front'); }
    if (position.aheadMin === position.aheadMax) {
      return W.t('ahead.exact', { count: position.aheadMin });
    }
    return W.t('ahead.between', { min: position.aheadMin, max: position.aheadMax, count: position.aheadMax });
  }

  /* The estimate's range {min, max} in seconds, in words of the page's language. */
  function estimate(wait) {
    if (!wait) { return W.t('status.notKnown'); }
    if (wait.max < 60) { return W.t('wait.underMinute'); }
    var low = W.duration(wait.min);
    var high = W.duration(wait.max);
    return low === high ? W.t('wait.about', { duration: high }) : W.t('wait.between', { min: low, max: high });
  }

  /* Why the range is wide, when the status says (estimatedWaitSeconds.caveat); hidden otherwise. */
  function caveat(wait) {
    var key = wait && wait.caveat ? W.own(CAVEATS, wait.caveat) : null;
    W.setText('caveat', key ? W.t(key) : '');
    W.show('caveat', !!key);
  }

  /*
   * Sold out, said for where the visitor stands: waiting (the place is kept for a new round), an offer the sell-out
   * withdrew, no place (a join refused), or done with the queue.
   */
  function showSoldOut(kind) {
    var details = { waiting: 'soldOut.waiting', withdrawn: 'soldOut.withdrawn', none: 'soldOut.none', done: 'soldOut.done' };
    W.setText('headline', W.t('soldOut.headline'));
    W.setText('detail', W.t(details[kind] || details.done));
    W.setText('ahead', W.t('soldOut.ahead'));
    W.setText('wait', W.t('soldOut.wait'));
    caveat(null);
    W.show('offer', false);
    W.show('rejoin-box', false);
  }

  function showEnded() {
    W.setText('headline', W.t('ended.headline'));
    W.setText('detail', W.t('ended.detail'));
    W.show('offer', false);
    W.show('rejoin-box', false);
  }

  function showOfferHeld() {
    W.setText('headline', W.t('held.headline'));
    W.setText('detail', W.t('held.detail'));
    W.setText('wait', W.t('held.wait'));
    caveat(null);
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
    W.setText('lane', s.lane && s.lane !== 'general' ? W.t('lane.named', { lane: s.lane }) : W.t('lane.general'));
    if (s.announcement) {
      W.setText('announcement', s.announcement);
      W.show('announcement-box', true);
    } else {
      W.show('announcement-box', false);
    }
    W.show('offer', false);
    W.show('rejoin-box', false);
    if (s.phase === 'SCHEDULED') {
      W.setText('wait', W.t('status.notKnown'));
      caveat(null);
      W.setText('headline', W.t('scheduled.headline'));
      W.setText('detail', W.t(policyValue('presaleOrdering') === 'FIFO' ? 'scheduled.detail.FIFO'
        : 'scheduled.detail.RANDOM'));
      return; /* before opening, the event status says how big the group is */
    }
    if (s.phase === 'ENDED') {
      W.setText('ahead', W.t('ended.ahead'));
      W.setText('wait', W.t('ended.wait'));
      caveat(null);
      showEnded();
      return;
    }
    /* sold out, shoppers already inside keep their session until it ends */
    if ((s.mode === 'SOLD_OUT' && s.state !== 'ACTIVE') || (offerWithdrawn && s.state === 'OFFERED')) {
      showSoldOut(s.state === 'WAITING' ? 'waiting' : s.state === 'OFFERED' ? 'withdrawn' : 'done');
      return;
    }
    var hold = s.admissionHold || null;
    /* a hold that stops offers (the shop's health, a planned window) shows no progress either */
    var paused = s.mode === 'PAUSED' || (hold !== null && hold.cause !== 'SHOP_SLOWED');
    /* no progress while paused: the place is shown as it stands, with no estimate */
    W.setText('ahead', paused && s.position ? W.t('ahead.paused', { ahead: band(s.position) }) : band(s.position));
    W.setText('wait', paused ? W.t('wait.paused') : estimate(s.estimatedWaitSeconds));
    caveat(paused ? null : s.estimatedWaitSeconds);
    if (s.mode === 'BYPASS') {
      W.setText('headline', W.t('bypass.headline'));
      W.setText('detail', W.t('bypass.detail'));
      document.getElementById('enter').href = shopTarget;
      W.setText('offer-text', W.t('bypass.offer'));
      W.show('offer', true);
      return;
    }
    switch (s.state) {
      case 'OFFERED':
        if (offerHeld || paused) { /* the claim below is answered admission-paused until admission resumes */
          showOfferHeld();
        } else {
          W.setText('headline', W.t('offered.headline'));
          W.setText('detail', W.t('offered.detail'));
          if (s.offer && s.offer.expiresAt) {
            W.setText('offer-text', W.t('offered.until', { time: W.time(s.offer.expiresAt) }));
          }
          document.getElementById('enter').href = shopTarget;
          W.show('offer', true);
        }
        claim(true);
        return;
      case 'ACTIVE':
        W.setText('headline', W.t('active.headline'));
        W.setText('detail', W.t('active.detail'));
        W.setText('offer-text', W.t('active.offer'));
        document.getElementById('enter').href = shopTarget;
        W.show('offer', true);
        if (!sessionRefreshed) {
          sessionRefreshed = true;
          claim(false);
        }
        return;
      case 'COMPLETED':
        W.setText('headline', W.t('completed.headline'));
        rememberSpent(true);
        if (policyValue('afterPurchase') === 'RELEASE') {
          W.setText('detail', W.t('completed.release'));
          W.show('rejoin-box', true);
        } else {
          W.setText('detail', W.t('completed.keep'));
        }
        return;
      case 'EXPIRED':
        rememberSpent(true);
        W.setText('headline', W.t('expired.headline'));
        W.setText('detail', W.t('expired.detail'));
        W.show('rejoin-box', true);
        return;
      case 'LEFT':
        rememberSpent(true);
        W.setText('headline', W.t('left.headline'));
        W.setText('detail', W.t('left.detail'));
        W.show('rejoin-box', true);
        return;
      default:
        break;
    }
    if (hold !== null) {
      showHold(hold);
      return;
    }
    if (paused) {
      W.setText('headline', W.t('paused.headline'));
      W.setText('detail', W.t('paused.detail'));
      return;
    }
    W.setText('headline', W.t('waiting.headline'));
    W.setText('detail', W.t(s.position && s.position.aheadMax === 0 ? 'waiting.next' : 'waiting.detail'));
  }

  /* Retry-After plus up to 50 % more, in ms, so pages refused together do not return together. */
  function afterRetryAfter(r) {
    return Math.round((r.retryAfter || 5) * 1000 * (1 + Math.random() * 0.5));
  }

  var memoryClaimKey = null;

  /*
   * This browser's claim key for the event (docs/design/architecture.md#identity), sent as Idempotency-Key: kept in
   * localStorage, never in a cookie, so every tab of this browser repeats a claim with the same key (a repeat whose
   * answer was lost gets the same session again) while a copied visitor cookie does not carry it.
   */
  function claimKey() {
    var name = 'waitroom.claim.' + event;
    try {
      var key = window.localStorage.getItem(name);
      if (!/^[A-Za-z0-9_-]{16,128}$/.test(key || '')) {
        key = randomKey();
        window.localStorage.setItem(name, key);
      }
      return key;
    } catch (e) {
      return memoryClaimKey || (memoryClaimKey = randomKey());
    }
  }

  function randomKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }

  /*
   * Claiming is idempotent for this browser: a repeat with its claim key (or its admission cookie) returns the same
   * session and a fresh token. While admission is paused the coordinator holds the offer and answers 503
   * admission-paused: the claim is tried again after Retry-After (plus jitter), not before; so is one refused 429 or
   * 503. A claim answered 409 sold-out means the offer was withdrawn.
   */
  function claim(thenEnterShop) {
    if (claiming || offerWithdrawn || Date.now() < claimRetryAt) { return; }
    clearTimeout(claimTimer);
    claiming = true;
    W.request('POST', base + '/admission/claim', {}, { 'Idempotency-Key': claimKey() }).then(function (r) {
      claiming = false;
      var type = problemType(r);
      if (r.ok) {
        offerHeld = false;
        try {
          if (r.body && r.body.expiresAt) { sessionStorage.setItem('waitroom.session.' + event, r.body.expiresAt); }
        } catch (e) { /* storage is optional */ }
        if (thenEnterShop) { window.location.assign(shopTarget); }
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
        W.setText('connection', W.t('connection.admissionUnreachable'));
        W.show('connection', true);
        var wait = afterRetryAfter(r);
        claimRetryAt = Date.now() + wait;
        claimTimer = setTimeout(function () { claim(thenEnterShop); }, wait);
      } else if (signInProblem(r)) {
        return;
      } else {
        schedule(2);
      }
    }, function () {
      claiming = false;
      connectionTrouble(W.t('connection.offerKept'));
    });
  }

  /* The published rules, one list item per rule and value; the draw's proof only where there is a random draw. */
  function renderRules(e) {
    var list = document.getElementById('rules');
    var items = [];
    var policy = e.policy || {};
    ['presaleOrdering', 'expiredOfferPolicy', 'afterPurchase', 'identityScope'].forEach(function (rule) {
      var texts = W.own(RULES[rule], policy[rule]);
      (texts || []).forEach(function (key) {
        var li = document.createElement('li');
        li.setAttribute('data-rule', rule);
        li.setAttribute('data-value', policy[rule]);
        li.textContent = W.t(key);
        items.push(li);
      });
    });
    if (e.phase === 'SCHEDULED') {
      var opens = document.createElement('li');
      opens.setAttribute('data-rule', 'opensAt');
      opens.textContent = e.opensAt ? W.t('rule.opensAt', { time: W.dateTime(e.opensAt) }) : W.t('rule.opensUnknown');
      items.push(opens);
    }
    if (items.length === 0) {
      var pending = document.createElement('li');
      pending.textContent = W.t('rule.pending');
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
    var title = W.t('page.titleNamed', { name: e.name || event });
    W.setText('event-title', title);
    if (document.title !== title) { document.title = title; }
  }

  /* Sold-out seat categories, from the public status only: no status poll reaches inventory. */
  function renderCategories(e) {
    var soldOut = e.soldOutCategories || [];
    if (soldOut.length === 0 || e.mode === 'SOLD_OUT') {
      W.show('categories-box', false);
      return;
    }
    W.setText('categories', W.t('categories.soldOut', { categories: soldOut.join(', ') }));
    W.show('categories-box', true);
  }

  /* A new sale round: said once on arrival when the round is not the first, and whenever it changes. */
  function renderRound(e) {
    var generation = e.saleGeneration || 1;
    if (seenGeneration === null ? generation > 1 : generation > seenGeneration) {
      var waiting = lastStatus && lastStatus.state === 'WAITING';
      W.setText('round', W.t('round.started', { round: generation }) + (waiting ? ' ' + W.t('round.placeKept') : ''));
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
        W.setText('draw', W.t('draw.none'));
      } else if (e.drawCompletedAt) {
        W.setText('draw', e.presaleCount != null
          ? W.t('draw.ranAmong', { time: W.time(e.drawCompletedAt), count: e.presaleCount })
          : W.t('draw.ran', { time: W.time(e.drawCompletedAt) }));
      } else if (e.phase && e.phase !== 'SCHEDULED') {
        W.setText('draw', W.t('draw.notNeeded'));
      }
      if (e.phase === 'SCHEDULED' && e.queueLength) {
        W.setText('ahead', (e.queueLength.max === e.queueLength.min
          ? W.t('presale.exact', { count: e.queueLength.min })
          : W.t('presale.between', { min: e.queueLength.min, max: e.queueLength.max, count: e.queueLength.max })) +
          ' ' + orderNote(e));
      }
      if (e.phase === 'SCHEDULED' && e.opensAt) {
        opensAt = new Date(e.opensAt);
        W.setText('opens-at', W.t('countdown.opensAt', { time: W.dateTime(e.opensAt) }));
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
    return W.t(e.policy && e.policy.presaleOrdering === 'FIFO' ? 'presale.note.FIFO' : 'presale.note.RANDOM');
  }

  /* The countdown is outside the live region: screen readers are not interrupted every second. */
  function tick() {
    clearTimeout(countdownTimer);
    if (!opensAt) { return; }
    var seconds = Math.round((opensAt.getTime() - Date.now()) / 1000);
    if (seconds <= 0) {
      W.setText('countdown', W.t('countdown.openingNow'));
      return;
    }
    W.setText('countdown', W.t('countdown.opensIn', { duration: W.countdown(seconds) }));
    countdownTimer = setTimeout(tick, 1000);
  }

  /* A place that ended (left, expired, or spent by a purchase under afterPurchase RELEASE) is followed by a new one. */
  document.getElementById('rejoin').addEventListener('click', function () {
    W.show('rejoin-box', false);
    rememberSpent(false);
    W.setText('headline', W.t('status.joining'));
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

  /* An access code moves the place to its lane (docs/operating/lanes-and-access-codes.md). The code goes in the
     POST body only and the field is emptied once it is accepted; the answer is said in the live region below it. */
  var codeMessages = {
    'code-invalid': 'code.invalid', 'code-used-up': 'code.usedUp', 'code-expired': 'code.expired',
    'code-revoked': 'code.revoked', 'not-in-queue': 'code.notWaiting', 'state-conflict': 'code.notWaiting'
  };
  var codeForm = document.getElementById('code-form');
  if (codeForm) {
    codeForm.addEventListener('submit', function (e) {
      e.preventDefault();
      var input = document.getElementById('code');
      var code = input.value.trim();
      if (!code) { input.focus(); return; }
      W.request('POST', base + '/code', { code: code }).then(function (r) {
        if (r.ok && r.body) {
          input.value = '';
          W.setText('code-result', W.t('code.accepted', { lane: r.body.lane }));
          poll();
          return;
        }
        var type = problemType(r).replace(/^.*\//, '');
        W.setText('code-result', W.t(codeMessages[type] || 'code.failed'));
      }, function () {
        W.setText('code-result', W.t('code.failed'));
      });
    });
  }

  var spentKey = 'waitroom-spent:' + event;

  W.setText('event-title', W.t('page.titleNamed', { name: event }));
  document.title = W.t('page.titleNamed', { name: event });
  if (spentHere()) {
    statusThenJoin();
  } else {
    join();
  }
}());
