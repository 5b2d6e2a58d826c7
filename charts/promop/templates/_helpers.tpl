{{/* The chart's name, or nameOverride. */}}
{{- define "promop.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The prefix of every resource name: fullnameOverride, else the release name (when it already contains the chart
name, as in `helm install promop`), else <release>-<chart>. 63 characters: the limit of a label value and a
Service name.
*/}}
{{- define "promop.fullname" -}}
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

{{/* Labels on every resource. */}}
{{- define "promop.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "promop.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: promop
{{- end }}

{{/* The labels the Deployment selects its pod by and the Service its endpoints by; immutable once installed. */}}
{{- define "promop.selectorLabels" -}}
app.kubernetes.io/name: {{ include "promop.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The ServiceAccount the operator runs as. */}}
{{- define "promop.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "promop.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}
