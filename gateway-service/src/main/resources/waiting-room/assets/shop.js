/* The minimal shop: list seats, hold one, pay, follow the order until it is settled. */
(function () {
  'use strict';
  var W = window.Waitroom;
  var event = W.eventId();
  var base = '/events/' + encodeURIComponent(event);
  var shop = base + '/shop';
  var hold = null;
  var paying = false;

  document.getElementById('back').href = base;

  function say(text) {
    W.setText('message', text);
  }

  function problem(r, fallback) {
    if (r.status === 401 || r.status === 403) {
      say('Your shopping session has ended or is not valid here. Return to the waiting room to get a new place.');
      document.getElementById('hold').disabled = true;
      return true;
    }
    say((r.body && r.body.detail) || fallback);
    return false;
  }

  function loadSeats() {
    W.request('GET', shop + '/seats').then(function (r) {
      if (!r.ok) { problem(r, 'The seats could not be loaded. Please try again.'); return; }
      /* booking says whether its payment simulator is on: then no payment here is real, and the page says so */
      W.show('simulated', !!(r.body && r.body.paymentsSimulated === true));
      var container = document.getElementById('seats');
      container.textContent = '';
      var seats = (r.body && r.body.seats) || [];
      if (seats.length === 0) {
        say('No seats are available any more.');
        return;
      }
      seats.forEach(function (seat, i) {
        var label = document.createElement('label');
        label.className = 'seat';
        var input = document.createElement('input');
        input.type = 'radio';
        input.name = 'seat';
        input.value = seat.seatId;
        input.id = 'seat-' + i;
        label.appendChild(input);
        label.appendChild(document.createTextNode(' Seat ' + seat.seatId + ' (' + seat.category + ', ' +
          (seat.priceCents / 100).toFixed(2) + ')'));
        container.appendChild(label);
      });
      document.getElementById('hold').disabled = false;
      say(seats.length + ' seats available. Pick one and hold it.');
    }, function () { say('Connection trouble while loading seats. Please try again.'); });
  }

  document.getElementById('seat-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var chosen = document.querySelector('input[name="seat"]:checked');
    if (!chosen) { say('Pick a seat first.'); return; }
    W.request('POST', shop + '/holds', { seatIds: [chosen.value] }).then(function (r) {
      if (r.status === 409) { say('That seat was just taken by someone else. Please pick another.'); loadSeats(); return; }
      if (!r.ok) { problem(r, 'The seat could not be held. Please try again.'); return; }
      hold = r.body;
      W.setText('hold-text', 'Seat ' + hold.seatIds.join(', ') + ' is held for you until ' +
        W.time(hold.expiresAt) + '. Pay before then to keep it.');
      W.show('hold-box', true);
      say('Seat held. Pay to complete your order.');
      document.getElementById('pay').focus();
    }, function () { say('Connection trouble. Your seat was not held; please try again.'); });
  });

  document.getElementById('pay').addEventListener('click', function () {
    if (!hold || paying) { return; }
    paying = true;
    var key = 'order-' + hold.holdId;
    W.request('POST', shop + '/orders', { holdId: hold.holdId }, { 'Idempotency-Key': key }).then(function (r) {
      paying = false;
      if (!r.ok) { problem(r, 'The order could not be placed. Please try again.'); return; }
      W.show('order-box', true);
      follow(r.body.orderId, 0);
    }, function () { paying = false; say('Connection trouble. Please press Pay again; you will not pay twice.'); });
  });

  function follow(orderId, attempt) {
    W.request('GET', shop + '/orders/' + encodeURIComponent(orderId)).then(function (r) {
      if (!r.ok) { problem(r, 'The order status could not be read. Retrying.'); setTimeout(function () { follow(orderId, attempt + 1); }, W.jittered(3)); return; }
      var order = r.body;
      if (order.state === 'PAID') {
        W.setText('order-text', 'Paid. Order ' + order.orderId + ' is confirmed.');
        say('Payment complete. Your ticket is confirmed.');
        W.show('hold-box', false);
      } else if (order.state === 'PAYMENT_FAILED' || order.state === 'VOIDED') {
        W.setText('order-text', 'The payment did not go through (' + order.state.toLowerCase().replace('_', ' ') + ').');
        say('The payment did not go through.');
      } else {
        W.setText('order-text', 'Payment in progress for order ' + order.orderId + '…');
        setTimeout(function () { follow(orderId, attempt + 1); }, W.jittered(Math.min(10, 1 + attempt)));
      }
    }, function () { setTimeout(function () { follow(orderId, attempt + 1); }, W.jittered(5)); });
  }

  document.getElementById('leave').addEventListener('click', function () {
    W.request('POST', base + '/shopping-session/leave', {}).then(function () {
      window.location.assign(base);
    }, function () { window.location.assign(base); });
  });

  function showSession(until) {
    if (until) { W.setText('session', 'Your shopping session lasts until ' + W.time(until) + '.'); }
  }

  /* A fresh token with a later expiry, never past the session's absolute limit (the coordinator decides). */
  document.getElementById('renew').addEventListener('click', function () {
    W.request('POST', base + '/shopping-session/renew', {}).then(function (r) {
      if (r.ok && r.body) {
        try { sessionStorage.setItem('waitroom.session.' + event, r.body.expiresAt); } catch (e) { /* optional */ }
        showSession(r.body.expiresAt);
        say('Your session now lasts until ' + W.time(r.body.expiresAt) +
          (r.body.absoluteExpiresAt ? ' (it cannot go past ' + W.time(r.body.absoluteExpiresAt) + ').' : '.'));
      } else {
        problem(r, 'Your session could not be extended.');
      }
    }, function () { say('Connection trouble. Your session was not extended; please try again.'); });
  });

  try {
    showSession(sessionStorage.getItem('waitroom.session.' + event));
  } catch (e) { /* storage is optional */ }
  loadSeats();
}());
