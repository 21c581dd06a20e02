// The API page: the server's OpenAPI description (/openapi.json) drawn as a list of endpoints and their fields.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const escape = (text) =>
    String(text ?? "").replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
  const spec = await (await fetch("/openapi.json")).json();
  $("title").textContent = `${spec.info.title} ${spec.info.version}: the JSON API`;
  $("description").textContent = spec.info.description || "";
  $("example").textContent =
    `curl -s ${location.origin}/api/hint -H 'Content-Type: application/json' \\\n` +
    `  -d '{"position": "3 3 1\\n1..\\n...\\n...\\n"}'`;

  const resolve = (schema) => {
    if (schema && schema.$ref) return spec.components.schemas[schema.$ref.split("/").pop()];
    return schema || {};
  };
  const typeOf = (schema) => {
    schema = resolve(schema);
    if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
    if (schema.type === "array") return `list of ${typeOf(schema.items)}`;
    return schema.title && !schema.type ? schema.title : schema.type || "object";
  };

  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const block = document.createElement("div");
      block.className = "endpoint";
      let html =
        `<h3><span class="method ${method}">${method.toUpperCase()}</span>${escape(path)}</h3>` +
        `<strong>${escape(operation.summary)}</strong><p>${escape(operation.description)}</p>`;
      const body = operation.requestBody && resolve(operation.requestBody.content["application/json"].schema);
      if (body && body.properties) {
        const required = new Set(body.required || []);
        html += '<table class="measures"><tr><th>field</th><th>type</th><th>default</th><th>what</th></tr>';
        for (const [name, field] of Object.entries(body.properties)) {
          const shown = required.has(name) ? "required" : JSON.stringify(field.default ?? null);
          html +=
            `<tr><td><code>${escape(name)}</code></td><td>${escape(typeOf(field))}</td>` +
            `<td>${escape(shown)}</td><td style="text-align:left">${escape(field.description)}</td></tr>`;
        }
        html += "</table>";
      }
      const answers = Object.entries(operation.responses || {})
        .map(([code, response]) => `<li><code>${escape(code)}</code> ${escape(response.description)}</li>`)
        .join("");
      html += `<ul>${answers}</ul>`;
      block.innerHTML = html;
      $("endpoints").appendChild(block);
    }
  }
})();
