{{/* The Service the public traffic goes to: the gateway (split) or the all-in-one pod. */}}
{{- define "noted.publicService" -}}
{{- $services := include "noted.services" . | fromYaml }}
{{- range $name, $service := $services }}
{{- if $service.public }}
{{- printf "%s %v\n" (include "noted.serviceName" (dict "root" $ "name" $name)) $service.ports.http }}
{{- end }}
{{- end }}
{{- end }}
