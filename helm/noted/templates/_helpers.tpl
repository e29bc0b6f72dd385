{{- define "noted.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "noted.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "noted.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object; pass (dict "root" $ "component" "users"). */}}
{{- define "noted.labels" -}}
helm.sh/chart: {{ include "noted.chart" .root }}
{{ include "noted.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: noted
{{- end }}

{{- define "noted.selectorLabels" -}}
app.kubernetes.io/name: {{ include "noted.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- end }}

{{/* The name of a service's objects: <fullname>-<service>. */}}
{{- define "noted.serviceName" -}}
{{- printf "%s-%s" (include "noted.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The headless Service of a service's gRPC port, <fullname>-<service>-grpc (the fullname cut to
fit 63 characters, the rest kept, so services never share one): its DNS name lists the address
of every ready pod. Pass (dict "root" $ "name" "users").
*/}}
{{- define "noted.grpcServiceName" -}}
{{- $suffix := printf "-%s-grpc" .name }}
{{- printf "%s%s" (include "noted.fullname" .root | trunc (int (sub 63 (len $suffix))) | trimSuffix "-") $suffix }}
{{- end }}

{{/*
Where the other services call a service's gRPC: the headless Service's full DNS name, which
libs/grpc's clients resolve to every ready pod and balance over (round_robin), looking it up
again as connections are replaced. Pass (dict "root" $ "name" "users" "port" 5101).
*/}}
{{- define "noted.grpcAddress" -}}
{{- printf "dns:///%s.%s.svc.%s:%v" (include "noted.grpcServiceName" .) .root.Release.Namespace (trimSuffix "." .root.Values.clusterDomain) .port }}
{{- end }}

{{/* USERS for users, BILLING_EVENTS for billing-events: the prefix of a service's variables. */}}
{{- define "noted.envPrefix" -}}
{{- . | upper | replace "-" "_" }}
{{- end }}

{{- define "noted.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{- define "noted.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "noted.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The services this release runs, as YAML: the enabled entries of `services` (split), or one
`all` entry (all). Use with fromYaml.
*/}}
{{- define "noted.services" -}}
{{- if eq .Values.topology "all" }}
{{- $all := deepCopy .Values.allInOne }}
{{- $_ := set $all "target" "all" }}
{{- $_ = set $all "public" true }}
{{- $_ = set $all "httpPortEnv" "PORT" }}
{{- $_ = set $all "database" false }}
{{- $_ = set $all "uses" (list "objectStore" "openai" "stripe" "keycloakAdmin") }}
{{- $_ = set $all "replicas" 1 }}
{{- $_ = set $all "autoscaling" (dict "enabled" false) }}
{{- $_ = set $all "pdb" (dict "enabled" false) }}
{{- toYaml (dict "all" $all) }}
{{- else }}
{{- $enabled := dict }}
{{- range $name, $service := .Values.services }}
{{- if $service.enabled }}
{{- $_ := set $enabled $name $service }}
{{- end }}
{{- end }}
{{- toYaml $enabled }}
{{- end }}
{{- end }}

{{- define "noted.publicHost" -}}
{{- (urlParse .Values.publicUrl).host | splitList ":" | first }}
{{- end }}

{{- define "noted.trial" -}}
{{- $root := .root }}
{{- if and $root.Values.trial.enabled (index $root.Values.trial .part "enabled") (eq $root.Values.topology "split") }}true{{ end }}
{{- end }}

{{- define "noted.keycloakUrl" -}}
{{- if include "noted.trial" (dict "root" . "part" "keycloak") }}
{{- printf "%s/auth" (trimSuffix "/" .Values.publicUrl) }}
{{- else }}
{{- .Values.keycloak.url | trimSuffix "/" }}
{{- end }}
{{- end }}

{{/* Whether a Keycloak admin client secret is given (inline, in a Secret of yours, or the trial's). */}}
{{- define "noted.keycloakAdminEnabled" -}}
{{- if or .Values.keycloak.adminClientSecret .Values.keycloak.existingSecret (include "noted.trial" (dict "root" . "part" "keycloak")) }}true{{ end }}
{{- end }}

{{- define "noted.natsUrl" -}}
{{- if include "noted.trial" (dict "root" . "part" "nats") }}
{{- printf "nats://%s-nats:4222" (include "noted.fullname" .) }}
{{- else }}
{{- .Values.nats.url }}
{{- end }}
{{- end }}

{{- define "noted.s3Endpoint" -}}
{{- if include "noted.trial" (dict "root" . "part" "minio") }}
{{- printf "http://%s-minio:9000" (include "noted.fullname" .) }}
{{- else }}
{{- .Values.objectStore.endpoint }}
{{- end }}
{{- end }}

{{/* The Secret a credential is read from: yours (existingSecret) or the chart's. */}}
{{- define "noted.secretFor" -}}
{{- $existing := index .root.Values .part "existingSecret" }}
{{- if $existing }}{{ $existing }}{{ else }}{{ include "noted.fullname" .root }}{{ end }}
{{- end }}

{{/* Where DATABASE_URL is read from, or nothing (the embedded PGlite). */}}
{{- define "noted.databaseSecret" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecret }}
{{- else if or .Values.database.url (include "noted.trial" (dict "root" . "part" "postgres")) }}
{{- include "noted.fullname" . }}
{{- end }}
{{- end }}

{{- define "noted.objectStoreEnabled" -}}
{{- if include "noted.s3Endpoint" . }}true{{ end }}
{{- end }}

{{/*
A value of the chart's Secret that is generated once: the value in the release's Secret when
there is one (lookup), else a new random one. `helm template` has no cluster: always new.
*/}}
{{- define "noted.kept" -}}
{{- $secret := lookup "v1" "Secret" .root.Release.Namespace (include "noted.fullname" .root) }}
{{- if and $secret $secret.data (hasKey $secret.data .key) }}
{{- index $secret.data .key | b64dec }}
{{- else }}
{{- randAlphaNum (int .length) }}
{{- end }}
{{- end }}

{{/* Pod-level settings shared by the services, the migration Job and the trial servers. */}}
{{- define "noted.podScheduling" -}}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
