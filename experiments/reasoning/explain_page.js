// Steps through the explanations of the page: reads the JSON blob, marks the step's
// cells over each puzzle's picture, writes the values fixed so far, and moves on with
// the buttons, the slider and the arrow keys (those of the section last used).
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var explanations = JSON.parse(document.getElementById("explanations").textContent);
  var viewers = [];
  var active = 0;

  function cellKey(cell) { return cell[0] + "," + cell[1]; }

  function element(name, attributes, parent) {
    var made = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { made.setAttribute(key, attributes[key]); });
    parent.appendChild(made);
    return made;
  }

  function listItem(list, text, detail) {
    var item = document.createElement("li");
    item.textContent = text;
    if (detail) {
      var small = document.createElement("span");
      small.className = "detail";
      small.textContent = " \u2014 " + detail;
      item.appendChild(small);
    }
    list.appendChild(item);
  }

  // What a reader sees at step `number`: step 0 is the givens.
  function stepAt(explanation, number) {
    if (number === 0) {
      return {text: "Before the first step: the givens", cost: null, constraints: [],
              premises: explanation.givens, facts: [], contradiction: false};
    }
    return explanation.steps[number - 1];
  }

  function Viewer(section, explanation) {
    this.section = section;
    this.explanation = explanation;
    this.boxes = explanation.boxes;
    this.current = 0;
    var svg = section.querySelector(".picture svg");
    var overlay = element("g", {"class": "overlay"}, svg);
    this.layers = {};
    ["state", "band", "premise", "derived"].forEach(function (name) {
      this.layers[name] = element("g", {"class": "layer-" + name}, overlay);
    }, this);
    this.slider = section.querySelector(".slider");
    var viewer = this;
    section.querySelector(".previous").addEventListener("click", function () {
      viewer.show(viewer.current - 1);
    });
    section.querySelector(".next").addEventListener("click", function () {
      viewer.show(viewer.current + 1);
    });
    this.slider.addEventListener("input", function () { viewer.show(Number(viewer.slider.value)); });
    var index = viewers.length;
    ["pointerdown", "focusin"].forEach(function (type) {
      section.addEventListener(type, function () { active = index; });
    });
  }

  Viewer.prototype.mark = function (layer, cells, kind, title) {
    var group = element("g", {"class": kind, "data-cells": cells.map(cellKey).join(" ")},
                        this.layers[layer]);
    if (title) { element("title", {}, group).textContent = title; }
    cells.forEach(function (cell) {
      var box = this.boxes[cellKey(cell)];
      if (box) {
        element("rect", {x: box[0], y: box[1], width: box[2], height: box[3],
                         "data-cell": cellKey(cell)}, group);
      }
    }, this);
  };

  // The values known after `number` steps: the latest derived fact of each variable.
  Viewer.prototype.known = function (number) {
    var latest = new Map();
    this.explanation.steps.slice(0, number).forEach(function (step) {
      step.facts.forEach(function (fact) {
        latest.set(fact.array + "[" + fact.index.join(",") + "]", fact);
      });
    });
    return Array.from(latest.values());
  };

  Viewer.prototype.drawState = function (number) {
    var layer = this.layers.state;
    this.known(number).forEach(function (fact) {
      var box = fact.cells.length ? this.boxes[cellKey(fact.cells[0])] : null;
      if (!box) { return; }
      var x = box[0] + box[2] / 2, y = box[1] + box[3] / 2;
      if (fact.cells.length > 1) {  // a fact about several cells: tint them
        this.mark("state", fact.cells, "settled", fact.text);
      } else if (fact.values.length === 1) {
        if (!fact.mark) { return; }
        element("text", {x: x, y: y, "font-size": box[3] * 0.55, "class": "fixed",
                         "data-cell": cellKey(fact.cells[0])}, layer).textContent =
          fact.mark;
      } else {
        element("text", {x: x, y: box[1] + box[3] * 0.8, "font-size": box[3] * 0.22,
                         "class": "candidates", "data-cell": cellKey(fact.cells[0])},
                layer).textContent = fact.values.join(" ");
      }
    }, this);
  };

  Viewer.prototype.show = function (number) {
    var last = this.explanation.steps.length;
    number = Math.max(0, Math.min(last, number));
    this.current = number;
    this.slider.value = String(number);
    Object.keys(this.layers).forEach(function (name) {
      this.layers[name].textContent = "";
    }, this);
    var step = stepAt(this.explanation, number);
    this.drawState(number);
    step.constraints.forEach(function (reason) {
      this.mark("band", reason.cells, "band", reason.text);
    }, this);
    step.premises.forEach(function (fact) { this.mark("premise", fact.cells, "premise", fact.text); }, this);
    step.facts.forEach(function (fact) { this.mark("derived", fact.cells, "derived", fact.text); }, this);
    var section = this.section;
    section.dataset.step = String(number);
    section.querySelector(".position").textContent = "step " + number + " of " + last;
    section.querySelector(".step-text").textContent =
      step.text + (step.contradiction ? " (a contradiction)" : "");
    section.querySelector(".cost").textContent = step.cost === null ? "" : "cost " + step.cost;
    section.querySelector(".premises-heading").textContent = number === 0 ? "Givens" : "Premises";
    var lists = {constraints: step.constraints, premises: step.premises, facts: step.facts};
    Object.keys(lists).forEach(function (name) {
      var list = section.querySelector("ul." + name);
      list.textContent = "";
      lists[name].forEach(function (item) {
        var detail = name === "constraints"
          ? item.description + " (weight " + item.weight + ")" : "";
        listItem(list, item.text, detail);
      });
    });
  };

  document.querySelectorAll("section.explanation").forEach(function (section) {
    var viewer = new Viewer(section, explanations[Number(section.dataset.index)]);
    viewers.push(viewer);
    viewer.show(0);
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!viewers.length || (target && target.type === "range")) { return; }  // its own keys
    var moves = {ArrowRight: 1, ArrowLeft: -1};
    if (!(event.key in moves)) { return; }
    var viewer = viewers[active];
    viewer.show(viewer.current + moves[event.key]);
    event.preventDefault();
  });

  // #step=N, or #explanation=I&step=N: open that step
  var asked = new URLSearchParams(window.location.hash.slice(1));
  if (asked.has("step") && viewers.length) {
    active = Math.max(0, Math.min(viewers.length - 1, Number(asked.get("explanation") || 0)));
    viewers[active].show(Number(asked.get("step")) || 0);
  }
}());
